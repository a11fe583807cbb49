import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { type FakeSearchServer, startFakeSearchServer } from '../../testing/fake-search-server.js';
import { webSearchConfigSchema } from './web-config.js';
import {
  braveSearchProvider,
  configuredSearchProvider,
  createWebSearchTool,
  type SearchProvider,
  searxngSearchProvider,
} from './web-search-tool.js';

const context = {
  agentId: 'main',
  sessionKey: 'agent:main:main',
  workspaceDir: '/tmp',
  signal: new AbortController().signal,
  log: silentLogger,
};
let server: FakeSearchServer;
afterEach(() => server.close());
const run = (provider: SearchProvider, query = 'hearth agent') =>
  createWebSearchTool({ provider: () => provider }).execute({ query, count: 5 }, context);

describe('web_search', () => {
  it('asks Brave with the key header and lists title, URL and snippet', async () => {
    server = await startFakeSearchServer('brave', 'k-123');
    const result = await run(braveSearchProvider({ baseUrl: server.baseUrl, apiKey: async () => 'k-123' }));
    expect(result.output).toBe(
      '1. Brave: hearth agent\n   https://example.com/a\n   first <strong>hit</strong>\n2. Second\n   https://example.com/b\n   second hit',
    );
    expect(server.requests[0]!.url).toBe('/res/v1/web/search?q=hearth%20agent&count=5');
  });

  it('asks SearXNG for format=json', async () => {
    server = await startFakeSearchServer('searxng');
    const result = await run(searxngSearchProvider({ baseUrl: `${server.baseUrl}/` }));
    expect(result.output).toBe(
      '1. SearXNG: hearth agent\n   https://example.org/x\n   searx hit\n2. Other\n   https://example.org/y',
    );
    expect(server.requests[0]!.url).toBe('/search?q=hearth%20agent&format=json');
  });

  it('turns 429, a refused key, a missing key and an unreachable server into clear errors', async () => {
    server = await startFakeSearchServer('brave', 'k-123');
    const brave = braveSearchProvider({ baseUrl: server.baseUrl, apiKey: async () => 'k-123' });
    server.nextStatus = 429;
    expect(await run(brave)).toEqual({
      output: 'web_search: Brave Search says too many requests (HTTP 429); retry after 2 s',
      isError: true,
    });
    expect(await run(braveSearchProvider({ baseUrl: server.baseUrl, apiKey: async () => 'wrong' }))).toEqual({
      output: 'web_search: Brave Search refused the API key (HTTP 401)',
      isError: true,
    });
    expect(await run(braveSearchProvider({ baseUrl: server.baseUrl, apiKey: async () => undefined }))).toEqual({
      output: 'web_search: no Brave Search API key in the secret store',
      isError: true,
    });
    server.nextStatus = 500;
    expect((await run(brave)).output).toBe('web_search: Brave Search answered HTTP 500');
    const gone = searxngSearchProvider({ baseUrl: 'http://127.0.0.1:1' });
    expect((await run(gone)).output).toMatch(/^web_search: SearXNG could not be reached/);
  });

  it('builds the configured provider with its key from the secret store, naming a missing entry', async () => {
    server = await startFakeSearchServer('searxng');
    const store = new Map([['searx-token', 's3cret']]);
    const secrets = { backend: 'keychain', get: async (name: string) => store.get(name) };
    const searx = configuredSearchProvider(
      webSearchConfigSchema.parse({ provider: 'searxng', url: server.baseUrl, apiKeySecret: 'searx-token' }),
      secrets,
    );
    expect((await run(searx)).output).toMatch(/^1\. SearXNG: hearth agent/);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer s3cret');

    const brave = configuredSearchProvider(webSearchConfigSchema.parse({ provider: 'brave' }), secrets);
    expect(await run(brave)).toEqual({
      output:
        'web_search: the Brave Search API key is not in the secret store (keychain): tools.web.search.apiKeySecret is "auth-profile:brave-search" (the default), and the store has no such entry; store the key with: hearth auth set brave-search --provider brave (the key on stdin)',
      isError: true,
    });
    const named = configuredSearchProvider(
      webSearchConfigSchema.parse({ provider: 'brave', apiKeySecret: 'my-brave' }),
      secrets,
    );
    expect((await run(named)).output).toContain('apiKeySecret is "my-brave", and the store has no such entry');
  });

  it('refuses a SearXNG setting without its URL, and an unknown provider, naming the field', () => {
    const issues = (input: unknown) =>
      webSearchConfigSchema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(issues({ provider: 'searxng' })).toEqual([
      'url: SearXNG needs the instance URL, e.g. "url": "http://nas.local:8888"',
    ]);
    expect(issues({ provider: 'google' })).toEqual(['provider: provider must be "brave" or "searxng"']);
  });
});
