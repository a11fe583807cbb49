import { open } from 'node:fs/promises';
import { FileToolError } from './file-access.js';

/** How much of a file is looked at to tell text from binary (git looks at 8 000 bytes). */
const SNIFF_BYTES = 8_192;

const signatures: [string, number[]][] = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['zip archive', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip archive', [0x1f, 0x8b]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
];

/** What kind of binary the bytes are, or undefined for text (no NUL byte, valid UTF-8 mostly). */
export function binaryKind(bytes: Uint8Array): string | undefined {
  for (const [name, magic] of signatures) if (magic.every((byte, index) => bytes[index] === byte)) return name;
  if (bytes.includes(0)) return 'binary data';
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // A multi-byte character cut at the end of the sample is not a sign of binary.
  const bad = (text.slice(0, -1).match(/\uFFFD/g) ?? []).length;
  return bad > Math.max(8, text.length * 0.05) ? 'binary data (not UTF-8 text)' : undefined;
}

/** Throws a clear refusal when the file at `path` is not text; `shown` is how the model named it. */
export async function assertTextFile(path: string, shown: string, tool: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = new Uint8Array(Math.min(SNIFF_BYTES, size));
    await handle.read(buffer, 0, buffer.length, 0);
    const kind = binaryKind(buffer);
    if (kind)
      throw new FileToolError(
        `refused: ${shown} is a binary file (${kind}, ${size} bytes); ${tool} works on text only`,
      );
  } finally {
    await handle.close();
  }
}
