import { z } from 'zod';
import { mcpHttpConfigSchema } from '../mcp-server/mcp-http-config.js';
import { openAiApiConfigSchema } from '../openai-api/openai-api-config.js';

/** hearth.json's `gateway`: where it listens, how peers sign in, TLS, the LAN listener, the HTTP surfaces. */
export const gatewayConfigSchema = z
  .object({
    port: z.number().int().min(0).max(65_535).default(18_790),
    /** loopback (127.0.0.1), lan (0.0.0.0, TLS required) or an explicit address. */
    bind: z.string().default('loopback'),
    auth: z
      .object({
        mode: z.enum(['token', 'password', 'none']).default('token'),
        /** Name of the secret in the SecretStore holding the password; the password itself is never here. */
        passwordSecret: z.string().optional(),
      })
      .strict()
      .default({ mode: 'token' }),
    tls: z
      .object({
        enabled: z.boolean().default(false),
        /** Extra names/IPs for the certificate (LAN address, hostname.local). */
        hostnames: z.array(z.string()).default([]),
      })
      .strict()
      .default({ enabled: false, hostnames: [] }),
    /** The remote-facing listener pairing turns on: always TLS, every peer treated as remote. */
    lan: z
      .object({
        bind: z.string().default('0.0.0.0'),
        /** 0 means the main port + 1. */
        port: z.number().int().min(0).max(65_535).default(0),
        /** Start it with the gateway (otherwise only when a phone is being paired). */
        enabled: z.boolean().default(false),
      })
      .strict()
      .default({ bind: '0.0.0.0', port: 0, enabled: false }),
    tickIntervalMs: z.number().int().min(1000).default(30_000),
    /**
     * `root`: serve another Control UI folder instead of Hearth's own, e.g. OpenClaw's
     * `dist/control-ui` so its users keep the UI they know (docs/GATEWAY.md "OpenClaw clients").
     */
    controlUi: z
      .object({ root: z.string().min(1).optional() })
      .strict()
      .default({}),
    writeBudget: z
      .object({ capacity: z.number().int().min(1), refillPerMinute: z.number().min(1) })
      .strict()
      .default({ capacity: 20, refillPerMinute: 60 }),
    /** The OpenAI-compatible HTTP API (`/v1/chat/completions`, `/v1/models`); off by default (docs/API.md). */
    openaiApi: openAiApiConfigSchema,
    /** Hearth's MCP server over Streamable HTTP at `/mcp`; off by default (docs/API.md). */
    mcpHttp: mcpHttpConfigSchema,
  })
  .strict();
