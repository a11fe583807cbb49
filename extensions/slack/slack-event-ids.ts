import type { ChannelStorage } from '../../src-main/plugins/sdk/index.js';

const KEEP = 500;

/**
 * The event ids the host already took, kept in the channel's storage so a redelivery (Socket
 * Mode's `retry_attempt`, the Events API's `X-Slack-Retry-Num`) after a dropped connection or a
 * restart is acknowledged without reaching the host twice. The last 500 are kept: Slack retries
 * within minutes, never hundreds of events later.
 */
export class SlackEventIds {
  private readonly ids: string[];
  private readonly set: Set<string>;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly storage: ChannelStorage,
    ids: string[],
  ) {
    this.ids = ids;
    this.set = new Set(ids);
  }

  static async open(storage: ChannelStorage): Promise<SlackEventIds> {
    const stored = await storage.read();
    const ids = Array.isArray(stored.eventIds) ? stored.eventIds.filter((id) => typeof id === 'string') : [];
    return new SlackEventIds(storage, ids.slice(-KEEP));
  }

  has(id: string): boolean {
    return this.set.has(id);
  }

  /** Remembers an id; resolves once it is stored. */
  add(id: string): Promise<void> {
    if (this.set.has(id)) return this.writing;
    this.set.add(id);
    this.ids.push(id);
    while (this.ids.length > KEEP) this.set.delete(this.ids.shift()!);
    const snapshot = [...this.ids];
    this.writing = this.writing.then(() => this.storage.write({ eventIds: snapshot })).catch(() => {});
    return this.writing;
  }
}
