/**
 * Collects a command's output up to a byte cap, keeping the beginning and the end
 * (errors usually sit at the end) and cutting the middle with a marker, so a
 * runaway `yes` cannot fill memory or the model's context.
 */
export class OutputBuffer {
  private head = '';
  private tail = '';
  private headBytes = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  get truncated(): boolean {
    return this.dropped > 0;
  }

  get droppedBytes(): number {
    return this.dropped;
  }

  append(text: string): void {
    const half = Math.floor(this.maxBytes / 2);
    if (this.headBytes < half) {
      const room = half - this.headBytes;
      const bytes = Buffer.byteLength(text);
      if (bytes <= room) {
        this.head += text;
        this.headBytes += bytes;
        return;
      }
      const taken = sliceBytes(text, room);
      this.head += taken;
      this.headBytes += Buffer.byteLength(taken);
      text = text.slice(taken.length);
    }
    this.tail += text;
    const tailBytes = Buffer.byteLength(this.tail);
    const keep = this.maxBytes - half;
    if (tailBytes > keep) {
      const cut = tailBytes - keep;
      const buffer = Buffer.from(this.tail);
      this.tail = buffer
        .subarray(cut)
        .toString('utf8')
        .replace(/^\uFFFD+/, '');
      this.dropped += cut;
    }
  }

  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[… ${this.dropped} bytes of output cut; to see them, send the output to a file (\`… > out.txt\`) and read it in parts …]\n${this.tail}`;
  }
}

function sliceBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text).subarray(0, maxBytes);
  return buffer.toString('utf8').replace(/\uFFFD+$/, '');
}
