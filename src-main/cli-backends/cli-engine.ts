import { mkdir } from 'node:fs/promises';
import type { AgentMessage, EngineTurnInput, TurnEngine, TurnOutcome, TurnStatus, Usage } from '../agent/index.js';
import type { CliBackendService, CliStreamEvent } from '../plugins/sdk/index.js';
import { runCliProcess } from './cli-process.js';
import type { CliSessionStore } from './cli-sessions.js';
import type { AgentEngineConfig } from './engine-config.js';
import {
  type CliPermissionAnswer,
  type CliPermissionRequest,
  type PermissionBridge,
  startPermissionBridge,
} from './permission-bridge.js';

/** The usage meter as a CLI engine needs it: the caps before a run, one record per reported usage. */
export interface CliUsageMeter {
  /** Throws (budget_exhausted) when a cap that covers this turn is used up. */
  check(target: { provider: string; model: string }): void;
  record(call: { provider: string; model: string } & Usage): void;
}

export interface CliEngineDeps {
  backend: CliBackendService;
  settings: AgentEngineConfig;
  sessions: CliSessionStore;
  meter?: CliUsageMeter;
  /** The environment the CLI runs in (its own auth lives there: ~/.claude, CODEX_HOME, API keys). */
  env: NodeJS.ProcessEnv;
  newId(): string;
  now(): number;
  /** Told each CLI process's pid as it starts (logs; tests that check the tree is gone). */
  onSpawn?(pid: number): void;
  /** Asks the Hearth user about a CLI's permission prompt (the approvals); without it, the CLI's mode decides alone. */
  approve?(
    request: CliPermissionRequest & { agentId: string; sessionKey: string; cwd: string },
    signal: AbortSignal,
  ): Promise<CliPermissionAnswer>;
}

/**
 * One agent's turn answered by an external agent CLI: spawn it in the agent's workspace with the
 * backend's arguments (resuming the CLI session this Hearth session had), read its JSONL stream
 * through the backend's parser, and report Hearth's runner events (text deltas, tool calls and
 * results, usage) and transcript messages. An abort kills the CLI's process tree; a CLI that
 * dies mid-stream ends the turn with an error that says so, keeping what it had streamed.
 */
export function createCliEngine(deps: CliEngineDeps): TurnEngine {
  const { backend, settings } = deps;
  return {
    label: backend.label,
    async run(input: EngineTurnInput): Promise<TurnOutcome> {
      const messages: AgentMessage[] = [];
      let usage: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
      let model = settings.model;
      let text = '';
      let cliSession: string | undefined;
      let done: { error?: string } | undefined;
      const denied: string[] = [];
      const target = () => ({ provider: backend.id, model: model ?? backend.id });
      const outcome = (status: TurnStatus, stopReason: string, error?: Error): TurnOutcome => {
        flushText(stopReason);
        return { status, messages, usage, model: model ?? backend.label, stopReason, ...(error ? { error } : {}) };
      };
      const flushText = (stopReason?: string) => {
        if (!text) return;
        messages.push({
          kind: 'assistant',
          id: deps.newId(),
          ts: deps.now(),
          text,
          model: model ?? backend.id,
          ...(stopReason ? { stopReason } : {}),
        });
        text = '';
      };
      const emitText = (delta: string) => {
        text += delta;
        input.onEvent({ type: 'text_delta', delta, text });
      };
      const handle = (event: CliStreamEvent) => {
        switch (event.type) {
          case 'session':
            cliSession = event.sessionId;
            model = settings.model ?? event.model ?? model;
            break;
          case 'text':
            emitText(event.delta);
            break;
          case 'tool_call': {
            flushText('tool_calls');
            const call = {
              kind: 'tool_call' as const,
              id: deps.newId(),
              ts: deps.now(),
              toolCallId: event.id,
              toolName: event.name,
              input: event.input,
            };
            messages.push(call);
            input.onEvent({ type: 'tool_call', call });
            break;
          }
          case 'tool_result': {
            const result = {
              kind: 'tool_result' as const,
              id: deps.newId(),
              ts: deps.now(),
              toolCallId: event.id,
              toolName: event.name,
              output: event.output,
              ...(event.isError ? { isError: true } : {}),
            };
            messages.push(result);
            input.onEvent({ type: 'tool_result', result });
            break;
          }
          case 'usage': {
            const call = {
              inputTokens: event.inputTokens,
              outputTokens: event.outputTokens,
              cachedInputTokens: event.cachedInputTokens,
            };
            usage = {
              inputTokens: usage.inputTokens + call.inputTokens,
              outputTokens: usage.outputTokens + call.outputTokens,
              cachedInputTokens: usage.cachedInputTokens + call.cachedInputTokens,
            };
            if (event.model) model = settings.model ?? event.model;
            deps.meter?.record({ ...target(), ...call });
            input.onEvent({ type: 'usage', usage: call });
            break;
          }
          case 'permission_denied':
            if (!denied.includes(event.name)) denied.push(event.name);
            break;
          case 'done':
            // The last word wins: a stream error the CLI recovered from is followed by a clean end.
            done = event.error ? { error: event.error } : {};
            break;
        }
      };

      try {
        deps.meter?.check(target());
      } catch (error) {
        return outcome('error', 'error', error instanceof Error ? error : new Error(String(error)));
      }
      const resumeId = await deps.sessions.get(input.agentId, input.sessionId, backend.id);
      const approve = deps.approve;
      const bridge: PermissionBridge | undefined =
        backend.permissionPrompts === 'mcp-tool' && approve
          ? await startPermissionBridge((request) =>
              approve(
                { ...request, agentId: input.agentId, sessionKey: input.sessionKey, cwd: input.workspaceDir },
                input.signal,
              ),
            )
          : undefined;
      const spawnAndRead = async (): Promise<TurnOutcome> => {
        const invocation = backend.invocation({
          prompt: input.message.text,
          ...(resumeId ? { resumeId } : {}),
          ...(bridge ? { permissionPrompt: { mcpConfig: bridge.mcpConfig, tool: bridge.tool } } : {}),
          ...(settings.model ? { model: settings.model } : {}),
          access: settings.access ?? 'read-only',
          cwd: input.workspaceDir,
        });
        const parser = backend.parser();
        const [program, ...leading] =
          typeof settings.command === 'string' ? [settings.command] : (settings.command ?? [backend.defaultCommand]);
        input.onEvent({ type: 'start', step: 0, model: model ?? backend.label });
        input.log.info('cli engine starting', { backend: backend.id, resume: resumeId !== undefined });
        // A new agent's workspace may not be seeded yet; a missing cwd would look like a missing program.
        await mkdir(input.workspaceDir, { recursive: true });
        const exit = await runCliProcess({
          command: program as string,
          args: [...leading, ...invocation.args],
          cwd: input.workspaceDir,
          env: deps.env,
          ...(invocation.stdin !== undefined ? { stdin: invocation.stdin } : {}),
          signal: input.signal,
          onSpawn: deps.onSpawn,
          onLine: (line) => {
            if (!line.trim()) return;
            let value: unknown;
            try {
              value = JSON.parse(line);
            } catch {
              // CLIs print the odd warning on stdout; only JSON lines are events.
              input.log.debug('cli engine: a stdout line that is not JSON was skipped', { backend: backend.id });
              return;
            }
            for (const event of parser.line(value)) handle(event);
          },
        });
        // Kept even when the turn failed: the CLI's conversation has this turn, the next one resumes it.
        if (cliSession) {
          await deps.sessions.set(input.agentId, input.sessionId, backend.id, cliSession).catch((error) => {
            input.log.warn('cli engine: the CLI session id was not saved', { error: String(error) });
          });
        }
        if (exit.aborted) return outcome('aborted', 'aborted');
        if (exit.spawnError) {
          const missing = exit.spawnError.code === 'ENOENT';
          return outcome(
            'error',
            'error',
            new Error(
              `${backend.label} could not be started: "${program}" ${missing ? 'was not found' : `failed (${exit.spawnError.message})`}; ` +
                `install it or set agents.list[].engine.command to its path`,
            ),
          );
        }
        const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
        const stderr = exit.stderr ? `: ${exit.stderr}` : '';
        if (!done) {
          return outcome('error', 'error', new Error(`${backend.label} ${how} before finishing its answer${stderr}`));
        }
        if (done.error)
          return outcome('error', 'error', new Error(`${backend.label} reported an error: ${done.error}`));
        if (denied.length > 0) {
          emitText(
            `${text ? '\n\n' : ''}(${backend.label}'s permission mode refused: ${denied.join(', ')}. ` +
              `Hearth never bypasses it; agents.list[].engine.access "workspace-write" allows edits in the workspace.)`,
          );
        }
        return outcome('ok', 'stop');
      };
      try {
        return await spawnAndRead();
      } finally {
        await bridge?.close();
      }
    },
  };
}
