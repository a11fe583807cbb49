import { describe, expect, it } from 'vitest';
import { type RouteInput, RouteInputError, resolveRoute } from './resolve-route.js';
import { type RoutingConfig, routingConfigSchema } from './routing-config.js';

/** Every kind of binding at once, listed least specific first so config order cannot be what decides. */
const config: RoutingConfig = routingConfigSchema.parse({
  agents: {
    list: [{ id: 'main', default: true }, { id: 'support' }, { id: 'dev' }, { id: 'ops' }, { id: 'sales' }],
    bindings: [
      { agentId: 'sales', match: { channel: 'telegram' } },
      { agentId: 'ops', match: { channel: 'telegram', accountId: 'opsbot' } },
      { agentId: 'dev', match: { channel: 'discord', guildId: '987' } },
      { agentId: 'support', match: { channel: 'telegram', peer: { kind: 'direct', id: 'vip' } } },
      { agentId: 'dev', match: { channel: 'discord', peer: { kind: 'group', id: 'g-special' } } },
      { agentId: 'ops', match: { channel: 'slack', accountId: '*' } },
    ],
  },
});

describe('resolveRoute precedence', () => {
  const cases: [string, RouteInput, string, string][] = [
    [
      'peer beats account and channel',
      { channel: 'telegram', accountId: 'opsbot', peerKind: 'direct', peerId: 'vip' },
      'support',
      'binding.peer',
    ],
    [
      'group peer beats guild',
      { channel: 'discord', guildId: '987', peerKind: 'group', peerId: 'g-special' },
      'dev',
      'binding.peer',
    ],
    [
      'guild beats channel',
      { channel: 'discord', guildId: '987', peerKind: 'group', peerId: 'other' },
      'dev',
      'binding.guild',
    ],
    [
      'account beats channel',
      { channel: 'telegram', accountId: 'opsbot', peerKind: 'direct', peerId: 'bob' },
      'ops',
      'binding.account',
    ],
    [
      'channel when nothing narrower matches',
      { channel: 'telegram', accountId: 'mainbot', peerKind: 'direct', peerId: 'bob' },
      'sales',
      'binding.channel',
    ],
    [
      'a "*" account is a channel binding',
      { channel: 'slack', accountId: 'x', peerKind: 'channel', peerId: 'C1' },
      'ops',
      'binding.channel',
    ],
    [
      'default agent when no binding matches',
      { channel: 'whatsapp', peerKind: 'direct', peerId: 'bob' },
      'main',
      'default',
    ],
    ['guild binding needs the guild', { channel: 'discord', peerKind: 'group', peerId: 'other' }, 'main', 'default'],
    [
      'peer binding needs the same kind',
      { channel: 'telegram', peerKind: 'group', peerId: 'vip' },
      'sales',
      'binding.channel',
    ],
    [
      'channel names match case-insensitively',
      { channel: 'Telegram', peerKind: 'direct', peerId: 'zed' },
      'sales',
      'binding.channel',
    ],
  ];
  it.each(cases)('%s', (_name, input, agentId, matchedBy) => {
    expect(resolveRoute(config, input)).toMatchObject({ agentId, matchedBy });
  });

  it('config order breaks ties within a tier', () => {
    const tie = routingConfigSchema.parse({
      agents: {
        list: [{ id: 'a' }, { id: 'b' }],
        bindings: [
          { agentId: 'b', match: { channel: 'telegram' } },
          { agentId: 'a', match: { channel: 'telegram' } },
        ],
      },
    });
    expect(resolveRoute(tie, { channel: 'telegram', peerKind: 'direct', peerId: '1' }).agentId).toBe('b');
  });

  it('builds the key for the chosen agent with the configured dmScope', () => {
    const input: RouteInput = { channel: 'telegram', accountId: 'opsbot', peerKind: 'direct', peerId: 'bob' };
    expect(resolveRoute(config, input).sessionKey).toBe('agent:ops:telegram:direct:bob');
    const perAccount = { ...config, session: { dmScope: 'per-account-channel-peer' as const } };
    expect(resolveRoute(perAccount, input).sessionKey).toBe('agent:ops:telegram:opsbot:direct:bob');
    expect(resolveRoute({ ...config, session: { dmScope: 'main' } }, input).sessionKey).toBe('agent:ops:main');
  });

  it('routes to "main" with an empty config, and to the first agent when none is marked default', () => {
    const input: RouteInput = { channel: 'telegram', peerKind: 'direct', peerId: '1' };
    expect(resolveRoute({}, input)).toEqual({
      agentId: 'main',
      sessionKey: 'agent:main:telegram:direct:1',
      matchedBy: 'default',
    });
    expect(resolveRoute({ agents: { list: [{ id: 'home' }, { id: 'work' }] } }, input).agentId).toBe('home');
  });

  it.each([
    [{ channel: '', peerKind: 'direct', peerId: '1' }, /without a channel/],
    [{ channel: 'telegram', peerKind: 'dm', peerId: '1' }, /peer kind "dm"/],
    [{ channel: 'telegram', peerKind: 'direct', peerId: '' }, /without a peer id/],
  ])('rejects bad input %j', (input, message) => {
    expect(() => resolveRoute(config, input as RouteInput)).toThrowError(RouteInputError);
    expect(() => resolveRoute(config, input as RouteInput)).toThrowError(message);
  });
});

describe('routing config schema', () => {
  it('applies defaults', () => {
    expect(routingConfigSchema.parse({})).toEqual({
      agents: { list: [], bindings: [] },
      session: { dmScope: 'per-channel-peer' },
    });
  });

  it('keeps agents.defaults for the runtime to validate', () => {
    const parsed = routingConfigSchema.parse({ agents: { defaults: { model: { primary: 'openai/gpt-4o' } } } });
    expect(parsed.agents.defaults).toEqual({ model: { primary: 'openai/gpt-4o' } });
  });

  it('keeps fields other capabilities add to an agent', () => {
    const parsed = routingConfigSchema.parse({
      agents: { list: [{ id: 'dev', model: 'openai/gpt-4o', identity: 'x' }] },
    });
    expect(parsed.agents.list[0]).toMatchObject({ id: 'dev', model: 'openai/gpt-4o', identity: 'x' });
  });

  const bad: [string, unknown, RegExp][] = [
    [
      'binding to an unknown agent',
      { agents: { list: [{ id: 'a' }], bindings: [{ agentId: 'b', match: { channel: 't' } }] } },
      /binding 0 routes to unknown agent "b"/,
    ],
    [
      'binding to anything but main without a list',
      { agents: { bindings: [{ agentId: 'b', match: { channel: 't' } }] } },
      /unknown agent "b" \(known: main\)/,
    ],
    ['duplicate agent ids', { agents: { list: [{ id: 'a' }, { id: 'a' }] } }, /duplicate agent id "a"/],
    [
      'two defaults',
      {
        agents: {
          list: [
            { id: 'a', default: true },
            { id: 'b', default: true },
          ],
        },
      },
      /only one agent may be the default/,
    ],
    ['a bad agent id', { agents: { list: [{ id: 'Bad Id' }] } }, /agent id must be/],
    [
      'a relative workspace folder',
      { agents: { list: [{ id: 'a', workspace: 'notes/a' }] } },
      /workspace.*must be an absolute path or start with ~\//,
    ],
    ['a binding without a channel', { agents: { bindings: [{ agentId: 'main', match: {} }] } }, /channel/],
    [
      'an unknown match field',
      { agents: { bindings: [{ agentId: 'main', match: { channel: 't', user: 'x' } }] } },
      /user/,
    ],
    ['an unknown dmScope', { session: { dmScope: 'per-galaxy' } }, /dmScope/],
    [
      'an unknown peer kind',
      { agents: { bindings: [{ agentId: 'main', match: { channel: 't', peer: { kind: 'dm', id: '1' } } }] } },
      /kind/,
    ],
  ];
  it.each(bad)('rejects %s', (_name, input, message) => {
    const result = routingConfigSchema.safeParse(input);
    expect(result.success).toBe(false);
    const text = result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n');
    expect(text).toMatch(message);
  });
});
