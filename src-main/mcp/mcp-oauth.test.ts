import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOAuthServer, startFakeOAuthServer } from '../testing/fake-oauth-server.js';
import {
  McpNeedsAuthorizationError,
  McpOAuthEntryError,
  McpOAuthProvider,
  type McpOAuthStore,
  oauthSecretName,
} from './mcp-oauth.js';

// The OAuth client provider against the fake authorization server on loopback: what a turn may and
// may not do without the person, where tokens go, and one refresh for requests that meet an expired
// token together (refresh tokens rotate: a second refresh with the same token is refused).

let oauth: FakeOAuthServer;
beforeAll(async () => {
  oauth = await startFakeOAuthServer();
});
afterAll(async () => {
  await oauth?.close();
});

function memoryStore(entries: Record<string, string> = {}): McpOAuthStore & { entries: Map<string, string> } {
  const map = new Map(Object.entries(entries));
  return {
    entries: map,
    get: async (name) => map.get(name),
    set: async (name, value) => void map.set(name, value),
    delete: async (name) => map.delete(name),
  };
}

function provider(store: McpOAuthStore, serverUrl = 'http://127.0.0.1:1/mcp') {
  return new McpOAuthProvider({
    server: 'docs',
    serverUrl,
    store,
    redirectUrl: () => 'http://127.0.0.1:2/mcp/oauth/callback',
    now: () => Date.now(),
  });
}

async function registerAndGrant(): Promise<{ clientId: string; refreshToken: string }> {
  const registered = await fetch(`${oauth.issuer}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:2/mcp/oauth/callback'] }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = 'v'.repeat(50);
  const { createHash } = await import('node:crypto');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${oauth.issuer}/authorize`);
  for (const [key, value] of Object.entries({
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:2/mcp/oauth/callback',
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(key, value);
  const redirected = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(redirected.headers.get('location')!).searchParams.get('code')!;
  const token = await fetch(`${oauth.issuer}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:2/mcp/oauth/callback',
    }),
  });
  const { refresh_token: refreshToken } = (await token.json()) as { refresh_token: string };
  return { clientId, refreshToken };
}

describe('McpOAuthProvider', () => {
  it('without the person, refuses to register or to send anyone to the browser', async () => {
    const oauthProvider = provider(memoryStore());
    await expect(oauthProvider.clientInformation()).rejects.toBeInstanceOf(McpNeedsAuthorizationError);
    expect(() => oauthProvider.redirectToAuthorization(new URL('http://example.test/authorize'))).toThrow(
      McpNeedsAuthorizationError,
    );
    await expect(oauthProvider.interactive(async () => oauthProvider.clientInformation())).resolves.toBeUndefined();
  });

  it('keeps registration and tokens in one secret store entry bound to the server URL', async () => {
    const store = memoryStore();
    const first = provider(store, 'http://127.0.0.1:1/mcp');
    await first.saveClientInformation({ client_id: 'c1' });
    await first.saveTokens({ access_token: 'a1', token_type: 'Bearer', expires_in: 60, refresh_token: 'r1' });
    const saved = JSON.parse(store.entries.get(oauthSecretName('docs'))!) as Record<string, unknown>;
    expect(saved).toMatchObject({ serverUrl: 'http://127.0.0.1:1/mcp', client: { client_id: 'c1' } });
    expect(first.status()).toMatchObject({ authorized: true, expiresAt: expect.any(Number) });

    expect(await provider(store, 'http://127.0.0.1:1/mcp').tokens()).toMatchObject({ access_token: 'a1' });
    // The same name pointed at another server: its tokens are never sent there.
    expect(await provider(store, 'https://elsewhere.example/mcp').tokens()).toBeUndefined();

    await first.clear();
    expect(store.entries.has(oauthSecretName('docs'))).toBe(false);
    expect(first.status()).toEqual({ authorized: false });
  });

  it('a damaged entry fails naming the field, never a token, is left as it is, and clearing it starts over', async () => {
    const damaged = JSON.stringify({
      serverUrl: 'http://127.0.0.1:1/mcp',
      tokens: { access_token: 'at-very-secret', token_type: 'Bearer', expires_in: 'soon' },
    });
    const store = memoryStore({ [oauthSecretName('docs')]: damaged });
    const oauthProvider = provider(store, 'http://127.0.0.1:1/mcp');
    const error = await oauthProvider.tokens().then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(McpOAuthEntryError);
    expect(error?.message).toBe(
      'the saved authorization of MCP server "docs" (secret store entry mcp-oauth:docs) cannot be read (tokens.expires_in: Invalid input: expected number, received string); it was left as it is: run mcp.auth.clear {"server":"docs"} and authorize again',
    );
    expect(error?.message).not.toContain('at-very-secret');
    await expect(oauthProvider.saveTokens({ access_token: 'a2', token_type: 'Bearer' })).rejects.toThrow(
      McpOAuthEntryError,
    );
    expect(store.entries.get(oauthSecretName('docs'))).toBe(damaged);

    store.entries.set(
      oauthSecretName('docs'),
      '{"serverUrl": "http://127.0.0.1:1/mcp", "tokens": {"access_token": "x"',
    );
    await expect(oauthProvider.tokens()).rejects.toThrow(/cannot be read \(not JSON\)/);
    await oauthProvider.clear();
    expect(await oauthProvider.tokens()).toBeUndefined();
  });

  it('sends one refresh for requests that meet an expired token together, and both get its tokens', async () => {
    const { clientId, refreshToken } = await registerAndGrant();
    const oauthProvider = provider(memoryStore());
    const body = () =>
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
    const before = oauth.counts.refreshGrants;
    const [one, two] = await Promise.all([
      oauthProvider.fetch(`${oauth.issuer}/token`, { method: 'POST', body: body() }),
      oauthProvider.fetch(`${oauth.issuer}/token`, { method: 'POST', body: body() }),
    ]);
    const [a, b] = (await Promise.all([one.json(), two.json()])) as { access_token: string }[];
    expect(oauth.counts.refreshGrants).toBe(before + 1);
    expect(oauth.refusals).not.toContain('invalid_grant');
    expect(a!.access_token).toBe(b!.access_token);
    expect(oauth.verify(a!.access_token)).toBe(true);
  });
});
