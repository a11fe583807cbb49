import { randomUUID } from 'node:crypto';
import type { RuntimeServices } from '../agent/index.js';
import { agentsTalkSettings, createAgentsTalk } from '../agents-talk/index.js';
import type { Clock } from '../base/clock.js';
import { DisposableStore } from '../base/disposable.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { AgentEvent, ChatEvent } from '../protocol/events.js';
import { DEFAULT_AGENT_ID, type Lanes, normalizeSessionKey, type SessionStore } from '../sessions/index.js';
import { createSubagents, type Subagents, subagentsSettings } from '../subagents/index.js';
import { createSessionsSendTool, createSubagentTools } from '../tools/sessions/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import { type UsageService, withUsageTag } from '../usage/index.js';
import type { HearthConfigService } from './hearth-config.js';

export interface WiredSubagents {
  subagents: Subagents;
  dispose(): void;
}

/**
 * Agents talking to each other (`sessions_send`, agents-talk/) and subagents (`sessions_spawn`,
 * `subagents_list`, `subagent_abort`, subagents/): their tools join the shared list (loaded on
 * demand through the catalogue), `subagents.list` / `subagents.abort` on the gateway, the
 * `subagent` event from each subagent's own run events and metered calls, and an aborted chat
 * aborting the subagents spawned under it.
 */
export function wireSubagents(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  config: Pick<HearthConfigService, 'current'>;
  clock: Clock;
  log: Logger;
  services: RuntimeServices;
  sessions: SessionStore;
  lanes: Lanes;
  usage: Pick<UsageService, 'meter'>;
  /** The shared tool list the runtime reads every turn. */
  tools: ToolDefinition[];
}): WiredSubagents {
  const { core, config, clock, sessions } = deps;
  const log = deps.log.child({ part: 'subagents' });
  const store = new DisposableStore();
  const runner = () => deps.services.runtime;

  const talk = createAgentsTalk({
    runner,
    settings: () => agentsTalkSettings(config.current.agents),
    knownAgents: () => {
      const ids = config.current.agents.list.map((agent) => agent.id);
      return ids.length > 0 ? ids : [DEFAULT_AGENT_ID];
    },
  });

  const subagents = createSubagents({
    runner,
    settings: (agentId) => subagentsSettings(config.current.agents, agentId),
    publish: (event) => core.bus.publish('subagent', event),
    // After the parent's running turn (its session lane), so the notice follows that turn's words.
    notify: (parent, text) =>
      deps.lanes.run(parent.sessionKey, 'nested', async () => {
        const record = await sessions.resolve(parent.agentId, parent.sessionKey);
        await sessions.append(parent.agentId, record.sessionId, [
          { kind: 'notification', id: randomUUID(), ts: clock.now(), text },
        ]);
        await sessions.sync(parent.agentId, record.sessionId);
      }),
    billedTo: (rootSessionKey, start) => withUsageTag({ parentSessionKey: rootSessionKey }, start),
    now: () => clock.now(),
    log,
  });
  store.add({ dispose: () => subagents.dispose() });

  store.add(
    core.bus.onDidPublish(({ event, payload }) => {
      if (event === 'agent') {
        const agent = payload as AgentEvent;
        if (!subagents.ofSession(agent.sessionKey)) return;
        if (agent.stream === 'assistant') {
          if (agent.data.delta) subagents.recordStep(agent.sessionKey, { kind: 'text', delta: agent.data.delta });
          return;
        }
        if (agent.stream !== 'tool') return;
        const { data } = agent;
        subagents.recordStep(
          agent.sessionKey,
          data.phase === 'call'
            ? { kind: 'tool_call', toolCallId: data.toolCallId, name: data.name }
            : { kind: 'tool_result', toolCallId: data.toolCallId, name: data.name, isError: data.isError },
        );
      } else if (event === 'chat' && (payload as ChatEvent).state === 'aborted') {
        // Aborting a chat (a person's or a subagent's own) aborts what it spawned, in the background too.
        const aborted = subagents.abortUnder((payload as ChatEvent).sessionKey);
        if (aborted.length > 0) log.info('aborted subagents with their parent', { aborted });
      }
    }),
  );
  store.add(
    deps.usage.meter.onDidRecord((record) => {
      if (record.sessionKey) subagents.recordCost(record.sessionKey, record);
    }),
  );

  store.add(
    core.registry.handle('subagents.list', ({ sessionKey, agentId, status }) => ({
      subagents: subagents.list({
        ...(sessionKey ? { under: normalizeSessionKey(sessionKey) } : {}),
        ...(agentId ? { agentId } : {}),
        running: status === 'running',
      }),
    })),
  );
  store.add(
    core.registry.handle('subagents.abort', ({ id, sessionKey }) => {
      if (id !== undefined) {
        if (!subagents.get(id)) throw new HearthError('not_found', `no subagent "${id}" (subagents.list shows them)`);
        return { aborted: subagents.abort(id) };
      }
      return { aborted: subagents.abortUnder(normalizeSessionKey(sessionKey!)) };
    }),
  );

  const tools = [createSessionsSendTool(talk), ...createSubagentTools(subagents)];
  deps.tools.push(...tools);
  store.add({
    dispose: () => {
      for (const tool of tools) {
        const index = deps.tools.indexOf(tool);
        if (index >= 0) deps.tools.splice(index, 1);
      }
    },
  });
  return { subagents, dispose: () => store.dispose() };
}
