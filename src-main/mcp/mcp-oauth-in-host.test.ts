import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { openSecretStore } from '../secrets/index.js';
import type { FakeLlmRequest } from '../testing/fake-llm/index.js';
import { type FakeOAuthServer, startFakeOAuthServer } from '../testing/fake-oauth-server.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../testing/mcp-oauth-protected-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// OAuth 2.1 for a remote MCP server, in the composed host: a fake authorization server (RFC 8414
// metadata, RFC 7591 registration, PKCE S256, refresh tokens) in front of the SDK-built fixture over
// Streamable HTTP that demands a bearer (RFC 9728). The test plays the person's browser.

let oauth: FakeOAuthServer;
let remote: ProtectedMcpServer;
let product: ProductFixture;
/** Every token the authorization server issued, to look for them in files afterwards. */
const issued = new Set<string>();

beforeAll(async () => {
  oauth = await startFakeOAuthServer({ accessTokenSeconds: 3600 });
  remote = await startProtectedMcpServer(oauth);
  product = await startProductFixture({
    config: {
      mcp: { servers: { docs: { url: remote.url, connectTimeoutMs: 30_000 } } },
      agents: {
        defaults: { model: 'openai/gpt-4o' },
        list: [{ id: 'main', default: true, mcp: { servers: ['docs'] } }],
      },
      tools: { profile: 'full' },
    },
  });
});
afterAll(async () => {
  await product?.close();
  await remote?.close();
  await oauth?.close();
});

function remember(): void {
  const live = oauth.liveTokens();
  for (const token of [...live.access, ...live.refresh]) issued.add(token);
}

interface Status {
  name: string;
  state: string;
  toolCount: number;
  lastError?: string;
  oauth?: { authorized: boolean; expiresAt?: number };
}

async function docsStatus(): Promise<Status> {
  const response = await product.socket.request('mcp.servers.list', {});
  expect(response.ok).toBe(true);
  return (response.payload as { servers: Status[] }).servers.find((server) => server.name === 'docs')!;
}

function toolResults(request: FakeLlmRequest | undefined): string[] {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
}

async function echoTurn(key: string, text: string): Promise<string | undefined> {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'docs__echo', input: { text } }] },
    { type: 'text', text: 'done' },
  ]);
  const end = await product.turn(key, `echo ${text}`);
  expect(end.state).toBe('final');
  return toolResults(product.llm.requests.at(-1)).at(-1);
}

/** What the person's browser does with the authorization URL: follow the redirects to the gateway. */
async function authorizeInBrowser(url: string): Promise<{ status: number; url: string; text: string }> {
  const page = await fetch(url, { redirect: 'follow' });
  return { status: page.status, url: page.url, text: await page.text() };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('OAuth for a remote MCP server', () => {
  it('shows needs_auth, and registers nothing until the person starts the authorization', async () => {
    const tested = await product.socket.request('mcp.servers.test', { name: 'docs' });
    expect(tested.payload).toMatchObject({ ok: false, server: { state: 'needs_auth' } });
    expect((tested.payload as { error: string }).error).toBe(
      'MCP server "docs" needs you to authorize Hearth: run mcp.auth.start {"server":"docs"}',
    );
    expect(await docsStatus()).toMatchObject({ state: 'needs_auth', oauth: { authorized: false } });
    expect(oauth.counts.registrations).toBe(0);

    // A turn meanwhile goes on without the server's tools, and a call says what to do.
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'docs__echo', input: { text: 'x' } }] },
      { type: 'text', text: 'ok' },
    ]);
    const end = await product.turn('oauth-before', 'try it');
    expect(end.state).toBe('final');
    const tools = (product.llm.requests.at(-2)?.body.tools ?? []) as { function?: { name?: string } }[];
    expect(tools.some((tool) => tool.function?.name?.startsWith('docs__'))).toBe(false);
    expect(oauth.counts.registrations).toBe(0);
  });

  it('mcp.auth.start gives the URL; the browser comes back to the gateway and the server connects', async () => {
    const started = await product.socket.request('mcp.auth.start', { server: 'docs' });
    expect(started.ok, JSON.stringify(started.error)).toBe(true);
    const { authorizationUrl, authorized } = started.payload as { authorized: boolean; authorizationUrl: string };
    expect(authorized).toBe(false);
    const url = new URL(authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${oauth.issuer}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${product.host.url}/mcp/oauth/callback`);
    expect(url.searchParams.get('resource')).toBe(remote.url);
    expect(oauth.counts.registrations).toBe(1);

    const page = await authorizeInBrowser(authorizationUrl);
    expect(page.url.startsWith(`${product.host.url}/mcp/oauth/callback?`)).toBe(true);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Hearth is authorized for MCP server &#34;docs&#34;.');
    expect(oauth.counts.codeGrants).toBe(1);
    remember();

    expect(await docsStatus()).toMatchObject({ state: 'ready', toolCount: 11, oauth: { authorized: true } });
    expect(await echoTurn('oauth-echo', 'hello')).toBe('echo: hello');
  });

  it('an expired access token is refreshed without the person', async () => {
    const before = { ...oauth.counts };
    const refusedBefore = remote.unauthorized;
    oauth.expireAccessTokens();
    expect(await echoTurn('oauth-refresh', 'again')).toBe('echo: again');
    expect(remote.unauthorized).toBe(refusedBefore + 1);
    expect(oauth.counts).toEqual({ ...before, refreshGrants: before.refreshGrants + 1 });
    remember();
    expect(await docsStatus()).toMatchObject({ state: 'ready', oauth: { authorized: true } });
  });

  it('a trial of an entry with the same name does not use or rotate the stored tokens', async () => {
    const before = { ...oauth.counts };
    const trial = await product.socket.request('mcp.servers.test', { name: 'docs', server: { url: remote.url } });
    expect(trial.payload).toMatchObject({ ok: false, server: { state: 'needs_auth' } });
    expect(oauth.counts).toEqual(before);
    expect(await echoTurn('oauth-after-trial', 'still')).toBe('echo: still');
  });

  it('keeps the tokens in the secret store and in no file of the Hearth home in plain text', async () => {
    const { store } = await openSecretStore({
      paths: product.host.paths,
      log: silentLogger,
      env: { HEARTH_SECRET_STORE: 'file' },
    });
    const saved = JSON.parse((await store.get('mcp-oauth:docs')) ?? '{}') as {
      serverUrl: string;
      tokens: { access_token: string; refresh_token: string };
      client: { client_id: string };
    };
    const live = oauth.liveTokens();
    expect(saved.serverUrl).toBe(remote.url);
    expect(live.access).toContain(saved.tokens.access_token);
    expect(live.refresh).toContain(saved.tokens.refresh_token);
    expect(issued.size).toBeGreaterThanOrEqual(4);

    const files = await filesUnder(product.home);
    expect(files.some((file) => file.endsWith('hearth.json'))).toBe(true);
    for (const file of files) {
      const bytes = await readFile(file);
      for (const token of issued) expect(bytes.includes(token), `${file} holds an OAuth token`).toBe(false);
    }
  });

  it('a refused authorization and an unknown state say so on the page and in the status', async () => {
    const unknown = await authorizeInBrowser(`${product.host.url}/mcp/oauth/callback?state=nope&code=abc`);
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('This authorization is unknown or expired');

    const cleared = await product.socket.request('mcp.auth.clear', { server: 'docs' });
    expect(cleared.payload).toMatchObject({ server: { oauth: { authorized: false } } });
    const started = await product.socket.request('mcp.auth.start', { server: 'docs' });
    const { authorizationUrl } = started.payload as { authorizationUrl: string };
    oauth.denyNext();
    const denied = await authorizeInBrowser(authorizationUrl);
    expect(denied.status).toBe(400);
    expect(denied.text).toContain('was not authorized (access_denied: the person declined)');
    expect(await docsStatus()).toMatchObject({
      state: 'needs_auth',
      lastError: 'authorization refused: access_denied: the person declined',
    });
    // The same state cannot be used twice.
    const replay = await authorizeInBrowser(
      `${product.host.url}/mcp/oauth/callback?state=${new URL(authorizationUrl).searchParams.get('state')}&code=x`,
    );
    expect(replay.status).toBe(400);

    const stdio = await product.socket.request('mcp.auth.start', { server: 'missing' });
    expect(stdio.error).toMatchObject({ message: 'no MCP server "missing" in mcp.servers' });
  });
});
