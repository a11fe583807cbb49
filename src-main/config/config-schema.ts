import { z } from 'zod';
import { execConfigSchema } from '../exec/exec-config.js';
import { agentMemoryConfigSchema, memoryConfigSchema } from '../memory/memory-config.js';
import { authConfigSchema, providersConfigSchema } from '../providers/provider-config.js';
import { agentsConfigSchema, sessionConfigSchema } from '../sessions/routing-config.js';

// hearth.json. Sections owned by a capability are validated by that capability's
// schema once mounted; until then they are open records so a newer file still loads.
const openSection = z.record(z.string(), z.unknown());

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
    writeBudget: z
      .object({ capacity: z.number().int().min(1), refillPerMinute: z.number().min(1) })
      .strict()
      .default({ capacity: 20, refillPerMinute: 60 }),
  })
  .strict();

export const pluginsConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    allow: z.array(z.string()).default([]),
    deny: z.array(z.string()).default([]),
    /** Exclusive slots: a plugin id, or 'none' to turn the capability off. */
    slots: z.record(z.string(), z.string()).default({}),
    entries: z
      .record(
        z.string(),
        z
          .object({ enabled: z.boolean().default(true), config: z.record(z.string(), z.unknown()).default({}) })
          .strict(),
      )
      .default({}),
  })
  .strict();

export const hearthConfigSchema = z
  .object({
    $schema: z.string().optional(),
    gateway: gatewayConfigSchema.default(gatewayConfigSchema.parse({})),
    agents: agentsConfigSchema.default(agentsConfigSchema.parse({})),
    session: sessionConfigSchema.default(sessionConfigSchema.parse({})),
    providers: providersConfigSchema.default({}),
    models: openSection.default({}),
    auth: authConfigSchema.default(authConfigSchema.parse({})),
    /** Defaults for every agent's tools; `agents.list[].tools` overrides per agent. */
    tools: z.object({ exec: execConfigSchema.optional() }).loose().default({}),
    memory: memoryConfigSchema.default(memoryConfigSchema.parse({})),
    cron: openSection.default({}),
    channels: openSection.default({}),
    ui: openSection.default({}),
    plugins: pluginsConfigSchema.default(pluginsConfigSchema.parse({})),
    logging: z
      .object({ level: z.enum(['debug', 'info', 'warn', 'error']).default('info') })
      .strict()
      .default({ level: 'info' }),
  })
  .strict()
  // `agents.list[].memory` is memory's to define (today: a per-agent `recall` override); the
  // routing schema lets the key through, and it is checked here with memory's own schema.
  .superRefine((config, ctx) => {
    config.agents.list.forEach((agent, index) => {
      const memory = (agent as { memory?: unknown }).memory;
      if (memory === undefined) return;
      const parsed = agentMemoryConfigSchema.safeParse(memory);
      if (parsed.success) return;
      for (const issue of parsed.error.issues)
        ctx.addIssue({
          code: 'custom',
          path: ['agents', 'list', index, 'memory', ...issue.path],
          message: issue.message,
        });
    });
  });

export type HearthConfig = z.infer<typeof hearthConfigSchema>;

export function defaultConfig(): HearthConfig {
  return hearthConfigSchema.parse({});
}
