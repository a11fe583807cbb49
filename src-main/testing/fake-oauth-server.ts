import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support (never shipped): an OAuth 2.1 authorization server on loopback, speaking the
 * protocols an MCP client meets in front of a remote server: RFC 8414 metadata, RFC 7591
 * dynamic client registration, `/authorize` (approves at once: it redirects with a code, as a
 * person clicking "Allow" would), `/token` with PKCE S256 checked and the refresh_token grant
 * (refresh tokens rotate, as OAuth 2.1 asks for public clients). Access tokens are short-lived
 * (`expires_in`); `expireAccessTokens()` ends the current ones now, so a test needs no waiting.
 */
export interface FakeOAuthServer {
  /** The issuer, e.g. http://127.0.0.1:PORT (no trailing slash). */
  issuer: string;
  /** Whether `token` is a live access token (what the resource server asks). */
  verify(token: string | undefined): boolean;
  /** Every access token issued so far becomes expired. */
  expireAccessTokens(): void;
  /** The live access and refresh tokens, for asserting where they are (and are not) stored. */
  liveTokens(): { access: string[]; refresh: string[] };
  /** What happened, for assertions. */
  readonly counts: { registrations: number; authorizations: number; codeGrants: number; refreshGrants: number };
  /** Token requests refused, with the OAuth error code (`invalid_grant`…). */
  readonly refusals: string[];
  /** Resource indicators (RFC 8707) seen on /authorize and /token. */
  readonly resources: string[];
  /** `/authorize` answers with `error=access_denied` (the person clicked "Deny"). */
  denyNext(): void;
  close(): Promise<void>;
}

interface Client {
  client_id: string;
  redirect_uris: string[];
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource?: string;
  used: boolean;
}

export async function startFakeOAuthServer(options: { accessTokenSeconds?: number } = {}): Promise<FakeOAuthServer> {
  const accessTokenSeconds = options.accessTokenSeconds ?? 60;
  const clients = new Map<string, Client>();
  const codes = new Map<string, Code>();
  const access = new Map<string, { expired: boolean }>();
  const refresh = new Map<string, { clientId: string; resource?: string }>();
  const counts = { registrations: 0, authorizations: 0, codeGrants: 0, refreshGrants: 0 };
  const refusals: string[] = [];
  const resources: string[] = [];
  let deny = false;
  let issuer = '';

  const token = () => randomBytes(24).toString('base64url');
  const issueTokens = (clientId: string, resource: string | undefined) => {
    const accessToken = `at-${token()}`;
    const refreshToken = `rt-${token()}`;
    access.set(accessToken, { expired: false });
    refresh.set(refreshToken, { clientId, ...(resource ? { resource } : {}) });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: accessTokenSeconds,
      refresh_token: refreshToken,
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', issuer);
    if (request.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server')
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    if (request.method === 'POST' && url.pathname === '/register') {
      const body = JSON.parse((await bodyOf(request)) || '{}') as { redirect_uris?: unknown };
      const uris = body.redirect_uris;
      if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string'))
        return json(response, 400, {
          error: 'invalid_redirect_uri',
          error_description: 'redirect_uris is required',
        });
      const client: Client = { client_id: `client-${token()}`, redirect_uris: uris as string[] };
      clients.set(client.client_id, client);
      counts.registrations += 1;
      return json(response, 201, {
        ...body,
        ...client,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        token_endpoint_auth_method: 'none',
      });
    }
    if (request.method === 'GET' && url.pathname === '/authorize') {
      const query = url.searchParams;
      const client = clients.get(query.get('client_id') ?? '');
      const redirectUri = query.get('redirect_uri') ?? '';
      // An unknown client or redirect URI is never redirected to (it could be anyone's page).
      if (!client?.redirect_uris.includes(redirectUri)) return text(response, 400, 'unknown client_id or redirect_uri');
      const back = new URL(redirectUri);
      const state = query.get('state');
      if (state) back.searchParams.set('state', state);
      const challenge = query.get('code_challenge');
      if (query.get('response_type') !== 'code' || query.get('code_challenge_method') !== 'S256' || !challenge) {
        back.searchParams.set('error', 'invalid_request');
        back.searchParams.set('error_description', 'response_type=code and an S256 code_challenge are required');
      } else if (deny) {
        deny = false;
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'the person declined');
      } else {
        const code = `code-${token()}`;
        const resource = query.get('resource') ?? undefined;
        if (resource) resources.push(resource);
        codes.set(code, {
          clientId: client.client_id,
          redirectUri,
          challenge,
          used: false,
          ...(resource ? { resource } : {}),
        });
        counts.authorizations += 1;
        back.searchParams.set('code', code);
      }
      response.writeHead(302, { location: back.toString(), 'cache-control': 'no-store' });
      response.end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(await bodyOf(request));
      const refuse = (error: string, description: string) => {
        refusals.push(error);
        return json(response, 400, { error, error_description: description });
      };
      const clientId = form.get('client_id') ?? '';
      if (!clients.has(clientId)) return refuse('invalid_client', 'unknown client_id');
      const resource = form.get('resource') ?? undefined;
      if (resource) resources.push(resource);
      if (form.get('grant_type') === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        if (!code || code.used || code.clientId !== clientId) return refuse('invalid_grant', 'unknown or used code');
        code.used = true;
        if (form.get('redirect_uri') !== code.redirectUri) return refuse('invalid_grant', 'redirect_uri differs');
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
          return refuse('invalid_grant', 'PKCE verification failed');
        counts.codeGrants += 1;
        return json(response, 200, issueTokens(clientId, code.resource));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const presented = form.get('refresh_token') ?? '';
        const grant = refresh.get(presented);
        if (!grant || grant.clientId !== clientId) return refuse('invalid_grant', 'unknown refresh_token');
        refresh.delete(presented);
        counts.refreshGrants += 1;
        return json(response, 200, issueTokens(clientId, grant.resource));
      }
      return refuse('unsupported_grant_type', `grant_type ${form.get('grant_type') ?? '(none)'}`);
    }
    return text(response, 404, 'not found');
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    verify: (presented) => presented !== undefined && access.get(presented)?.expired === false,
    expireAccessTokens() {
      for (const entry of access.values()) entry.expired = true;
    },
    liveTokens: () => ({
      access: [...access].filter(([, entry]) => !entry.expired).map(([value]) => value),
      refresh: [...refresh.keys()],
    }),
    counts,
    refusals,
    resources,
    denyNext() {
      deny = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

function text(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/plain' });
  response.end(body);
}
