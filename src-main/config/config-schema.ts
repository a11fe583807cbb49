import { z } from 'zod';
import { bootstrapSettingsSchema } from '../agent/bootstrap/bootstrap-settings.js';
import { agentToAgentConfigSchema, canMessageConfigSchema } from '../agents-talk/agents-talk-config.js';
import { agentEngineConfigSchema } from '../cli-backends/engine-config.js';
import { cronConfigSchema } from '../cron/cron-config.js';
import { execConfigSchema } from '../exec/exec-config.js';
import { heartbeatConfigSchema } from '../heartbeat/heartbeat-config.js';
import { agentMcpConfigSchema, mcpConfigSchema } from '../mcp/mcp-config.js';
import { mcpHttpConfigSchema } from '../mcp-server/mcp-http-config.js';
import { agentMemoryConfigSchema, memoryConfigSchema } from '../memory/memory-config.js';
import { openAiApiConfigSchema } from '../openai-api/openai-api-config.js';
import { agentModelConfigSchema, authConfigSchema, providersConfigSchema } from '../providers/provider-config.js';
import { checkAgents, createAgentsConfigSchema, sessionConfigSchema } from '../sessions/routing-config.js';
import { subagentsConfigSchema } from '../subagents/subagents-config.js';
import { browserToolsConfigSchema } from '../tools/browser/browser-config.js';
import { toolCatalogueConfigShape } from '../tools/catalogue/catalogue-config.js';
import { filesToolsConfigSchema } from '../tools/files/files-config.js';
import { webToolsConfigSchema } from '../tools/web/web-config.js';
import { usageConfigSchema } from '../usage/usage-config.js';

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

/** Each capability's slice of one agent's settings, allowed on `agents.defaults` and on `agents.list[]`. */
const agentSettingsSlices = {
  /** providers': the agent's model, `"provider/model"` or `{ primary, fallbacks }`. */
  model: agentModelConfigSchema.optional(),
  /** cli-backends': an agent CLI (Claude Code, Codex) answers instead of the model loop (docs/AGENT.md). */
  engine: agentEngineConfigSchema.optional(),
  /** exec's: the agent's own exec policy (`tools.exec`), over the root `tools.exec`; the tool catalogue's `profile` / `core` / `deny`. */
  tools: z
    .object({ exec: execConfigSchema.optional(), ...toolCatalogueConfigShape })
    .loose()
    .optional(),
  /** the context module's: which engine assembles the agent's history (default "linear"). */
  contextEngine: z.string().min(1).optional(),
  /** memory's: a per-agent `recall` override. */
  memory: agentMemoryConfigSchema.optional(),
  /** the MCP client's: which MCP servers (and tools) the agent uses (docs/MCP.md). */
  mcp: agentMcpConfigSchema.optional(),
  /** subagents': how deep this agent's subagents may nest, how long a foreground one may take (docs/AGENT.md). */
  subagents: subagentsConfigSchema.optional(),
};

/** `agents`: routing's section with every capability's slice merged in. */
export const agentsSectionSchema = createAgentsConfigSchema({
  /** agents-talk's `canMessage`: the agents this one may address with sessions_send. */
  entry: { ...agentSettingsSlices, canMessage: canMessageConfigSchema.optional() },
  /** the bootstrap module's: workspace-file budgets, for every agent; agents-talk's allowlist. */
  defaults: {
    ...agentSettingsSlices,
    bootstrap: bootstrapSettingsSchema.optional(),
    agentToAgent: agentToAgentConfigSchema.optional(),
  },
}).superRefine((agents, ctx) => checkAgents(agents, ctx));

export const hearthConfigSchema = z
  .object({
    $schema: z.string().optional(),
    /** The file's format version (src-main/migrations, docs/UPGRADES.md); absent means 1. */
    version: z.number().int().positive().optional(),
    gateway: gatewayConfigSchema.default(gatewayConfigSchema.parse({})),
    agents: agentsSectionSchema.default(agentsSectionSchema.parse({})),
    session: sessionConfigSchema.default(sessionConfigSchema.parse({})),
    providers: providersConfigSchema.default({}),
    models: openSection.default({}),
    auth: authConfigSchema.default(authConfigSchema.parse({})),
    /** Defaults for every agent's tools; `agents.list[].tools` overrides per agent. */
    tools: z
      .object({
        exec: execConfigSchema.optional(),
        ...toolCatalogueConfigShape,
        /** the file tools' (tools/files): folders granted beyond the workspace. */
        files: filesToolsConfigSchema.optional(),
        /** web_fetch's (tools/web): private-network access, size caps, timeouts. */
        web: webToolsConfigSchema.optional(),
        /** the browser tool's (tools/browser): which Chromium, headless, idle time, private-network access. */
        browser: browserToolsConfigSchema.optional(),
      })
      .loose()
      .default({}),
    memory: memoryConfigSchema.default(memoryConfigSchema.parse({})),
    cron: cronConfigSchema.default(cronConfigSchema.parse({})),
    /** MCP servers whose tools agents may use (docs/MCP.md). */
    mcp: mcpConfigSchema.default(mcpConfigSchema.parse({})),
    heartbeat: heartbeatConfigSchema.default(heartbeatConfigSchema.parse({})),
    /** Spend: prices, caps per day / month (src-main/usage, docs/USAGE.md). */
    usage: usageConfigSchema.default(usageConfigSchema.parse({})),
    channels: openSection.default({}),
    ui: openSection.default({}),
    plugins: pluginsConfigSchema.default(pluginsConfigSchema.parse({})),
    logging: z
      .object({ level: z.enum(['debug', 'info', 'warn', 'error']).default('info') })
      .strict()
      .default({ level: 'info' }),
  })
  .strict();

export type HearthConfig = z.infer<typeof hearthConfigSchema>;
export type AgentsSection = HearthConfig['agents'];
/** hearth.json as written (defaults not applied): what an edit that writes the file back reads. */
export type HearthConfigFile = z.input<typeof hearthConfigSchema>;

/**
 * Reads hearth.json as written, typed by the root schema's input: the value is checked against
 * the schema and kept as it is (defaults not applied), so writing it back adds nothing.
 */
export const hearthConfigFileSchema = z.custom<HearthConfigFile>(
  (value) => hearthConfigSchema.safeParse(value).success,
  'hearth.json does not match its schema',
);

export function defaultConfig(): HearthConfig {
  return hearthConfigSchema.parse({});
}
