/**
 * Test support: the Discord REST routes behind Discord's agent tools, for the fake Discord server
 * (https://discord.com/developers/docs/resources): `PUT /channels/{c}/messages/{m}/reactions/{emoji}/@me`
 * (204), `PUT /channels/{c}/pins/{m}` (204), `GET /channels/{c}` (a guild channel's `guild_id`, a
 * DM's recipients) and `GET /guilds/{g}/members?limit=` (guild members, 403 code 50001 without
 * the Server Members intent). What the bot did is kept for tests to read.
 */

export interface FakeGuildMember {
  user: { id: string; username: string; global_name?: string; bot?: boolean };
  nick?: string;
  roles: string[];
}

export class FakeDiscordChatTools {
  readonly reactions: { channelId: string; messageId: string; emoji: string }[] = [];
  readonly pins: { channelId: string; messageId: string }[] = [];
  private readonly guildOfChannel = new Map<string, string>();
  private readonly members = new Map<string, FakeGuildMember[]>();

  setGuild(guildId: string, channelIds: readonly string[], members: FakeGuildMember[]): void {
    for (const id of channelIds) this.guildOfChannel.set(id, guildId);
    this.members.set(guildId, members);
  }

  /** The answer for a route of these tools, or undefined when `path` is not one. */
  handle(method: string, path: string, query: URLSearchParams): { status: number; body?: unknown } | undefined {
    let match = /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/.exec(path);
    if (match && method === 'PUT') {
      const emoji = decodeURIComponent(match[3]!);
      if (/^[\w-]+$/.test(emoji)) return { status: 400, body: { message: 'Unknown Emoji', code: 10014 } };
      this.reactions.push({ channelId: match[1]!, messageId: match[2]!, emoji });
      return { status: 204 };
    }
    match = /^\/channels\/(\d+)\/pins\/(\d+)$/.exec(path);
    if (match && method === 'PUT') {
      this.pins.push({ channelId: match[1]!, messageId: match[2]! });
      return { status: 204 };
    }
    match = /^\/channels\/(\d+)$/.exec(path);
    if (match && method === 'GET') {
      const guild = this.guildOfChannel.get(match[1]!);
      return {
        status: 200,
        body: guild ? { id: match[1], type: 0, guild_id: guild } : { id: match[1], type: 1, recipients: [] },
      };
    }
    match = /^\/guilds\/(\d+)\/members$/.exec(path);
    if (match && method === 'GET') {
      const members = this.members.get(match[1]!);
      if (!members) return { status: 403, body: { message: 'Missing Access', code: 50001 } };
      const limit = Math.min(Math.max(Number(query.get('limit') ?? 1), 1), 1000);
      return { status: 200, body: members.slice(0, limit) };
    }
    return undefined;
  }
}
