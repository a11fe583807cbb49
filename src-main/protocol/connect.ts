import { z } from 'zod';
import type { Role, Scope } from './scopes.js';

export const PROTOCOL_VERSION = 4;
export const MINIMUM_PROBE_PROTOCOL = 3;

export const clientIds = [
  'webchat-ui',
  'openclaw-control-ui',
  'openclaw-browser-copilot',
  'openclaw-tui',
  'webchat',
  'cli',
  'gateway-client',
  'openclaw-macos',
  'openclaw-linux',
  'openclaw-ios',
  'openclaw-watchos',
  'openclaw-android',
  'node-host',
  'openclaw-worker',
  'test',
  'fingerprint',
  'openclaw-probe',
  // Hearth's own clients.
  'hearth-control-ui',
  'hearth-desktop',
  'hearth-cli',
] as const;
export const clientModes = ['webchat', 'cli', 'ui', 'backend', 'node', 'worker', 'probe', 'test'] as const;

export type ClientId = (typeof clientIds)[number];
export type ClientMode = (typeof clientModes)[number];

export const connectParamsSchema = z
  .object({
    minProtocol: z.number().int(),
    maxProtocol: z.number().int(),
    client: z
      .object({
        id: z.enum(clientIds),
        version: z.string(),
        platform: z.string(),
        mode: z.enum(clientModes),
        displayName: z.string().optional(),
        deviceFamily: z.string().optional(),
        modelIdentifier: z.string().optional(),
        instanceId: z.string().optional(),
      })
      .strict(),
    role: z.string().optional(),
    scopes: z.array(z.string()).optional(),
    caps: z.array(z.string()).optional(),
    commands: z.array(z.string()).optional(),
    permissions: z.record(z.string(), z.unknown()).optional(),
    locale: z.string().optional(),
    userAgent: z.string().optional(),
    auth: z
      .object({
        token: z.string().optional(),
        password: z.string().optional(),
        deviceToken: z.string().optional(),
        bootstrapToken: z.string().optional(),
      })
      .strict()
      .optional(),
    device: z
      .object({
        id: z.string(),
        publicKey: z.string(),
        signature: z.string(),
        signedAt: z.number().int(),
        nonce: z.string(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type ConnectParams = z.infer<typeof connectParamsSchema>;

export interface ConnectChallenge {
  nonce: string;
  ts: number;
  capabilities: string[];
}

export type AuthMethod = 'none' | 'token' | 'password' | 'device-token' | 'bootstrap-token' | 'local' | 'api-token';

export interface PresenceEntry {
  ts: number;
  host?: string;
  ip?: string;
  version?: string;
  mode?: string;
  reason?: string;
  deviceId?: string;
  roles?: string[];
  scopes?: string[];
  text?: string;
  connId?: string;
  clientId?: string;
  platform?: string;
}

export interface HelloOk {
  type: 'hello-ok';
  protocol: number;
  server: { version: string; connId: string; buildId?: string };
  features: { methods: string[]; events: string[]; capabilities: string[] };
  snapshot: {
    presence: PresenceEntry[];
    health: Record<string, unknown>;
    stateVersion: { presence: number; health: number };
    uptimeMs: number;
    sessionDefaults?: Record<string, unknown>;
  };
  auth: {
    role: Role;
    scopes: Scope[] | string[];
    method?: AuthMethod;
    deviceToken?: string;
    issuedAtMs?: number;
    deviceTokens?: { role: string; token: string; scopes: string[] }[];
  };
  policy: { maxPayload: number; maxBufferedBytes: number; tickIntervalMs: number };
}

export const gatewayPolicyDefaults = {
  preConnectMaxPayload: 65_536,
  maxPayload: 26_214_400,
  maxBufferedBytes: 52_428_800,
  tickIntervalMs: 30_000,
  handshakeTimeoutMs: 15_000,
} as const;
