import { z } from 'zod';
import { bootstrapSettingsSchema } from '../agent/bootstrap/bootstrap-settings.js';
import { agentToAgentConfigSchema, canMessageConfigSchema } from '../agents-talk/agents-talk-config.js';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import { agentEngineConfigSchema } from '../cli-backends/engine-config.js';
import { asWrittenSchema, ConfigService, validateConfigText } from '../config/index.js';
import { cronConfigSchema } from '../cron/cron-config.js';
import { execConfigSchema } from '../exec/exec-config.js';
import { gatewayConfigSchema } from '../gateway/gateway-config.js';
import { heartbeatConfigSchema } from '../heartbeat/heartbeat-config.js';
import { agentMcpConfigSchema, mcpConfigSchema } from '../mcp/mcp-config.js';
import { agentMemoryConfigSchema, memoryConfigSchema } from '../memory/memory-config.js';
import { pluginsConfigSchema } from '../plugins/plugins-config.js';
import { agentModelConfigSchema, authConfigSchema, providersConfigSchema } from '../providers/provider-config.js';
import { checkAgents, createAgentsConfigSchema, sessionConfigSchema } from '../sessions/routing-config.js';
import { subagentsConfigSchema } from '../subagents/subagents-config.js';
import { browserToolsConfigSchema } from '../tools/browser/browser-config.js';
import { toolCatalogueConfigShape } from '../tools/catalogue/catalogue-config.js';
import { filesToolsConfigSchema } from '../tools/files/files-config.js';
import { webToolsConfigSchema } from '../tools/web/web-config.js';
import { usageConfigSchema } from '../usage/usage-config.js';

// hearth.json as a whole: the one place that knows every capability's section. Each
// capability owns its slice (its `*-config.ts` schema); this merges them, so config/ stays a
// generic file service and a new capability adds its section here, beside its wiring.
// Sections owned by a capability are validated by that capability's schema once mounted;
// until then they are open records so a newer file still loads.
const openSection = z.record(z.string(), z.unknown());

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

/** Reads hearth.json as written, typed by the root schema's input (see asWrittenSchema). */
export const hearthConfigFileSchema = asWrittenSchema(hearthConfigSchema, 'hearth.json');

export function defaultConfig(): HearthConfig {
  return hearthConfigSchema.parse({});
}

/** hearth.json as the host reads it: every capability's section, typed without a cast. */
export type HearthConfigService = ConfigService<HearthConfig>;

/** Opens hearth.json with every capability's schema (start-up, the CLI commands that read it). */
export function openHearthConfig(options: {
  path: string;
  clock: Clock;
  log: Logger;
  watch?: boolean;
}): Promise<HearthConfigService> {
  return ConfigService.open({ ...options, schema: hearthConfigSchema });
}

/** Checks hearth.json text against every capability's section (`hearth config validate`, `doctor`). */
export function validateHearthConfigText(text: string) {
  return validateConfigText(hearthConfigSchema, text);
}
