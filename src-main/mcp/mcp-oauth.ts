import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';

/**
 * OAuth 2.1 for remote MCP servers (the MCP authorization spec): the SDK runs the flow
 * (`auth()`: RFC 9728 / 8414 discovery, RFC 7591 registration, PKCE, code exchange, refresh);
 * this is the part it asks the application for: where the client registration and tokens are
 * kept (the secret store, one entry per server, never hearth.json or logs), the redirect URL
 * (the gateway's own `/mcp/oauth/callback`) and what "send the person to the browser" means.
 */

/** The secret store, by shape. */
export interface McpOAuthStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
}

/** The secret store entry for a server's registration and tokens. */
export const oauthSecretName = (server: string) => `mcp-oauth:${server}`;

/** What one entry holds. Bound to the server's URL: a different URL reads as nothing stored. */
interface Saved {
  serverUrl: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token expires (from `expires_in`), for the status. */
  expiresAt?: number;
}

// Typed by the interface it decodes, so a field added to an entry without its schema breaks the
// build; `loose`, so what the SDK or the authorization server added (redirect_uris, …) is kept.
const savedSchema: z.ZodType<Saved> = z.looseObject({
  serverUrl: z.string(),
  client: z
    .looseObject({
      client_id: z.string().min(1),
      client_secret: z.string().optional(),
      client_id_issued_at: z.number().optional(),
      client_secret_expires_at: z.number().optional(),
    })
    .optional(),
  tokens: z
    .looseObject({
      access_token: z.string(),
      id_token: z.string().optional(),
      token_type: z.string(),
      expires_in: z.number().optional(),
      scope: z.string().optional(),
      refresh_token: z.string().optional(),
      issuer: z.string().optional(),
    })
    .optional(),
  expiresAt: z.number().optional(),
});

/**
 * A server's saved registration and tokens that are not what Hearth wrote. Never read as nothing
 * stored: the next save would overwrite the entry. Names the field only, never a token.
 */
export class McpOAuthEntryError extends Error {
  constructor(server: string, reason: string) {
    super(
      `the saved authorization of MCP server "${server}" (secret store entry ${oauthSecretName(server)}) cannot be read (${reason}); it was left as it is: run mcp.auth.clear {"server":"${server}"} and authorize again`,
    );
    this.name = 'McpOAuthEntryError';
  }
}

/**
 * Connecting found the server needs the person to authorize Hearth (no tokens, or a refresh the
 * authorization server refused). Thrown from inside the SDK's `auth()` when no person asked for
 * the flow, so a turn never registers a client or opens a browser on its own.
 */
export class McpNeedsAuthorizationError extends Error {
  constructor(server: string) {
    super(`MCP server "${server}" needs you to authorize Hearth: run mcp.auth.start {"server":"${server}"}`);
    this.name = 'McpNeedsAuthorizationError';
  }
}

export interface McpOAuthDeps {
  server: string;
  serverUrl: string;
  store: McpOAuthStore;
  /** The gateway's callback URL (`…/mcp/oauth/callback`). */
  redirectUrl(): string;
  /** Space-separated scopes to ask for when the server's metadata names none. */
  scope?: string;
  now(): number;
  /** Tokens or registration were saved or removed (the status shows `authorized` and `expiresAt`). */
  onChange?(): void;
}

/** How long an authorization URL stays good for (its `state` and PKCE verifier then go). */
const pendingForMs = 10 * 60_000;
/** How long the answer to a refresh is kept for a request that read the same refresh token. */
const refreshMemoMs = 60_000;

/**
 * One server's OAuth client. Passive by default (a turn connecting): stored tokens are sent and
 * refreshed, but a flow that needs the person throws McpNeedsAuthorizationError. `interactive()`
 * lets one `auth()` call register and build the authorization URL (`mcp.auth.start`).
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private saved: Saved | undefined;
  private loaded: Promise<void> | undefined;
  private interactiveDepth = 0;
  private discovery: OAuthDiscoveryState | undefined;
  private pending: { state: string; verifier?: string; url?: URL; at: number } | undefined;
  private readonly refreshes = new Map<string, { answer: Promise<Response>; at: number }>();

  constructor(private readonly deps: McpOAuthDeps) {}

  /**
   * The fetch the transport and `auth()` use. Two requests that meet an expired token at once
   * (two turns, a heartbeat) each refresh it; authorization servers rotate refresh tokens, so the
   * second refresh would be refused and the SDK would then drop the fresh tokens. The same refresh
   * is sent once and both get its answer.
   */
  readonly fetch: FetchLike = (url, init) => {
    const body = init?.body;
    if (init?.method !== 'POST' || !(body instanceof URLSearchParams) || body.get('grant_type') !== 'refresh_token')
      return fetch(url, init);
    const key = `${String(url)} ${body.toString()}`;
    const now = this.deps.now();
    for (const [old, entry] of this.refreshes) if (now - entry.at > refreshMemoMs) this.refreshes.delete(old);
    let entry = this.refreshes.get(key);
    if (!entry) {
      entry = { answer: fetch(url, init), at: now };
      this.refreshes.set(key, entry);
      entry.answer.catch(() => this.refreshes.delete(key));
    }
    return entry.answer.then((response) => response.clone());
  };

  get redirectUrl(): string {
    return this.deps.redirectUrl();
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Hearth',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app keeps no client secret worth the name: a public client, PKCE protects the code.
      token_endpoint_auth_method: 'none',
      ...(this.deps.scope ? { scope: this.deps.scope } : {}),
    };
  }

  /** Runs `flow` (one SDK `auth()` call) allowed to register and to build an authorization URL. */
  async interactive<T>(flow: () => Promise<T>): Promise<T> {
    this.interactiveDepth += 1;
    try {
      return await flow();
    } finally {
      this.interactiveDepth -= 1;
    }
  }

  state(): string {
    const state = randomBytes(24).toString('base64url');
    // A turn's connect never replaces the authorization the person has open.
    if (this.interactiveDepth > 0) this.pending = { state, at: this.deps.now() };
    return state;
  }

  /** The authorization URL the last interactive flow built, while it is still good. */
  authorizationUrl(): URL | undefined {
    return this.pendingLive()?.url;
  }

  /** Whether `state` is the one of this server's open authorization (single use, 10 minutes). */
  owns(state: string): boolean {
    return this.pendingLive()?.state === state;
  }

  /** The authorization was answered (or abandoned): its state and verifier go. */
  endPending(): void {
    this.pending = undefined;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const client = (await this.load())?.client;
    if (!client) {
      if (this.interactiveDepth === 0) throw new McpNeedsAuthorizationError(this.deps.server);
      return undefined;
    }
    // Registered for another redirect URL (the gateway's port changed): a new authorization
    // needs a new registration; refreshing tokens does not.
    const uris = (client as { redirect_uris?: string[] }).redirect_uris;
    if (this.interactiveDepth > 0 && uris && !uris.includes(this.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.save({ client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load())?.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in === undefined ? undefined : this.deps.now() + tokens.expires_in * 1000;
    await this.save({ tokens, expiresAt });
  }

  redirectToAuthorization(url: URL): void {
    if (this.interactiveDepth === 0) throw new McpNeedsAuthorizationError(this.deps.server);
    // Hearth opens no browser itself: mcp.auth.start answers this URL and the UI opens it.
    if (this.pending) this.pending.url = url;
  }

  saveCodeVerifier(verifier: string): void {
    if (this.interactiveDepth > 0 && this.pending) this.pending.verifier = verifier;
  }

  codeVerifier(): string {
    const verifier = this.pendingLive()?.verifier;
    if (!verifier)
      throw new Error(`MCP server "${this.deps.server}": no authorization is open (it expired or was answered)`);
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    if (scope === 'verifier' && this.pending) delete this.pending.verifier;
    if (scope === 'all') await this.save({ client: undefined, tokens: undefined, expiresAt: undefined });
    else if (scope === 'client') await this.save({ client: undefined });
    else if (scope === 'tokens') await this.save({ tokens: undefined, expiresAt: undefined });
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** What the status shows (as last read from the secret store): tokens stored, when the access token expires. */
  status(): { authorized: boolean; expiresAt?: number } {
    return {
      authorized: this.saved?.tokens !== undefined,
      ...(this.saved?.expiresAt !== undefined ? { expiresAt: this.saved.expiresAt } : {}),
    };
  }

  /** Reads the secret store entry (so the status is right before the first connect). */
  async prime(): Promise<void> {
    await this.load();
  }

  /** Forgets the registration and tokens (`mcp.auth.clear`). */
  async clear(): Promise<void> {
    this.saved = { serverUrl: this.deps.serverUrl };
    this.loaded = Promise.resolve();
    this.discovery = undefined;
    this.pending = undefined;
    await this.deps.store.delete(oauthSecretName(this.deps.server));
    this.deps.onChange?.();
  }

  private pendingLive() {
    if (this.pending && this.deps.now() - this.pending.at > pendingForMs) this.pending = undefined;
    return this.pending;
  }

  private async load(): Promise<Saved | undefined> {
    if (!this.loaded) {
      const loading = this.deps.store.get(oauthSecretName(this.deps.server)).then((raw) => {
        const parsed = parseSaved(this.deps.server, raw);
        // Tokens for another URL are never sent to this one.
        this.saved = parsed?.serverUrl === this.deps.serverUrl ? parsed : { serverUrl: this.deps.serverUrl };
      });
      this.loaded = loading;
      // A damaged entry is read again next time, so fixing or clearing it needs no restart.
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = undefined;
      });
    }
    await this.loaded;
    return this.saved;
  }

  private async save(change: Partial<Saved>): Promise<void> {
    const current = (await this.load()) ?? { serverUrl: this.deps.serverUrl };
    const next: Saved = { ...current, ...change, serverUrl: this.deps.serverUrl };
    for (const key of Object.keys(next) as (keyof Saved)[]) if (next[key] === undefined) delete next[key];
    this.saved = next;
    await this.deps.store.set(oauthSecretName(this.deps.server), JSON.stringify(next));
    this.deps.onChange?.();
  }
}

function parseSaved(server: string, raw: string | undefined): Saved | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // JSON.parse's message quotes the text, which holds tokens: left out.
    throw new McpOAuthEntryError(server, 'not JSON');
  }
  const parsed = savedSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new McpOAuthEntryError(server, `${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}`);
}
