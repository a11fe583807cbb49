/**
 * Test support: the Web API methods behind Slack's agent tools, for the fake Slack server
 * (https://api.slack.com/methods): `reactions.add` (`already_reacted`, `invalid_name` for a name
 * that is not an emoji name), `pins.add` (`already_pinned`), `conversations.members` (paged with
 * `response_metadata.next_cursor`; `channel_not_found` for an unknown one). Kept for tests to read.
 */

export class FakeSlackChatTools {
  readonly reactions: { channel: string; timestamp: string; name: string }[] = [];
  readonly pins: { channel: string; timestamp: string }[] = [];
  private readonly members = new Map<string, string[]>();

  setMembers(channel: string, userIds: string[]): void {
    this.members.set(channel, userIds);
  }

  /** `{ok:true,…}` or `{ok:false,error}`, or undefined when `method` is not one of these. */
  handle(method: string, params: Record<string, unknown>): Record<string, unknown> | undefined {
    const channel = typeof params.channel === 'string' ? params.channel : '';
    const timestamp = typeof params.timestamp === 'string' ? params.timestamp : '';
    switch (method) {
      case 'reactions.add': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (!/^\d+\.\d+$/.test(timestamp)) return { ok: false, error: 'message_not_found' };
        const name = typeof params.name === 'string' ? params.name : '';
        if (!/^[a-z0-9_+'-]+$/.test(name)) return { ok: false, error: 'invalid_name' };
        if (this.reactions.some((r) => r.channel === channel && r.timestamp === timestamp && r.name === name))
          return { ok: false, error: 'already_reacted' };
        this.reactions.push({ channel, timestamp, name });
        return { ok: true };
      }
      case 'pins.add': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (!/^\d+\.\d+$/.test(timestamp)) return { ok: false, error: 'message_not_found' };
        if (this.pins.some((p) => p.channel === channel && p.timestamp === timestamp))
          return { ok: false, error: 'already_pinned' };
        this.pins.push({ channel, timestamp });
        return { ok: true };
      }
      case 'conversations.members': {
        const all = this.members.get(channel);
        if (!all) return { ok: false, error: 'channel_not_found' };
        const start = Number(typeof params.cursor === 'string' ? params.cursor : '0') || 0;
        const limit = Math.min(Math.max(Number(params.limit ?? 100), 1), 1000);
        const page = all.slice(start, start + limit);
        const next = start + limit < all.length ? String(start + limit) : '';
        return { ok: true, members: page, response_metadata: { next_cursor: next } };
      }
      default:
        return undefined;
    }
  }
}
