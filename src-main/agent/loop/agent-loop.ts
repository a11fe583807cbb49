import { type FlexibleSchema, type LanguageModelUsage, streamText, type ToolSet, tool, zodSchema } from 'ai';
import { linkedAbortController } from '../../base/abort.js';
import type { Logger } from '../../base/logger.js';
import { markTurnPhase } from '../../base/turn-phases.js';
import type { SdkLanguageModel } from '../../providers/index.js';
import type { OnDemandTools, ToolContext, ToolDefinition } from '../../tools/tool.js';
import type { ContextBudget } from '../context/index.js';
import type { AgentMessage, AssistantMessage, ToolCallMessage, Usage } from '../messages.js';
import { type AgentLoopEvent, type AgentLoopResult, addUsage, EmptyResponseError, zeroUsage } from './loop-events.js';
import { toModelMessages } from './to-model-messages.js';
import { runToolCall, type ToolCallHooks } from './tool-calls.js';

export interface AgentLoopHooks extends ToolCallHooks {
  /** The context engine plugs in here: the history to send for the next call, within budget. */
  transformContext?(messages: readonly AgentMessage[], budget: ContextBudget): Promise<AgentMessage[]>;
  /**
   * The cache trace plugs in here: the context of each LLM call at seven stages (session loaded,
   * sanitized, limited, prompt before, images, stream context, session after). Must not throw.
   */
  traceContext?(call: {
    step: number;
    stage: ContextTraceStage;
    system?: string;
    tools?: unknown;
    /** A function when the stage's messages cost work to make: the trace makes them when it writes. */
    messages: readonly unknown[] | (() => readonly unknown[]);
  }): void;
}

export type ContextTraceStage =
  | 'session_loaded'
  | 'sanitized'
  | 'limited'
  | 'prompt_before'
  | 'images'
  | 'stream_context'
  | 'session_after';

export interface AgentLoopInput {
  model: SdkLanguageModel;
  /** `provider/model`, stamped on assistant messages and events. */
  modelRef: string;
  profileId?: string;
  system?: string;
  /** Everything the model should see, ending with the new user message. */
  history: readonly AgentMessage[];
  /** The turn's core tools: the stable part of the prompt. */
  tools: readonly ToolDefinition[];
  /** Tools loaded on demand (tools_load): re-read before each step, their schemas sent after the core. */
  onDemand?: OnDemandTools;
  toolContext: Omit<ToolContext, 'signal'>;
  hooks?: AgentLoopHooks;
  budget: ContextBudget;
  maxOutputTokens?: number;
  /** LLM calls per turn (a tool round trip is two). */
  maxSteps?: number;
  signal: AbortSignal;
  log: Logger;
  now(): number;
  newId(): string;
  onEvent(event: AgentLoopEvent): void;
}

/**
 * One SDK schema per tool schema, for the life of the process. Given a zod schema, the SDK wraps
 * it anew and converts it to JSON Schema on every call (2–3 ms a turn for the core tools); a
 * wrapped schema it reuses, and the wrapper keeps its JSON Schema once made.
 */
const sdkSchemas = new WeakMap<object, FlexibleSchema<unknown>>();
function sdkSchemaOf(schema: ToolDefinition['inputSchema']): FlexibleSchema<unknown> {
  let wrapped = sdkSchemas.get(schema);
  if (!wrapped) {
    wrapped = zodSchema(schema);
    sdkSchemas.set(schema, wrapped);
  }
  return wrapped;
}

/**
 * The ReAct loop: call the model, run the tools it asked for, repeat until it answers
 * without tools. Kept free of retries, profiles and fallback (that is the runner's job).
 * Tools are given to the SDK without `execute` so approvals and truncation stay ours.
 */
export async function runAgentLoop(input: AgentLoopInput): Promise<AgentLoopResult> {
  const produced: AgentMessage[] = [];
  const toolsByName = new Map([...(input.onDemand?.callable ?? []), ...input.tools].map((t) => [t.name, t]));
  const toSdk = (list: readonly ToolDefinition[]) =>
    list.map((t) => [t.name, tool({ description: t.description, inputSchema: sdkSchemaOf(t.inputSchema) })] as const);
  const coreTools = toSdk(input.tools);
  const coreNames = new Set(input.tools.map((t) => t.name));
  let sdkTools: ToolSet = Object.fromEntries(coreTools);
  let usage = zeroUsage();
  let sideEffects = false;
  const maxSteps = input.maxSteps ?? 12;

  const finish = (status: AgentLoopResult['status'], stopReason: string, error?: unknown): AgentLoopResult => {
    if (status === 'error') input.onEvent({ type: 'error', error });
    else input.onEvent({ type: 'end', stopReason });
    return { status, messages: produced, usage, stopReason, sideEffects, error };
  };

  for (let step = 0; step < maxSteps; step++) {
    if (input.signal.aborted) return finish('aborted', 'aborted');
    const trace = input.hooks?.traceContext;
    const working = [...input.history, ...produced];
    trace?.({ step, stage: 'session_loaded', messages: input.history });
    trace?.({ step, stage: 'sanitized', messages: working });
    const history = input.hooks?.transformContext ? await input.hooks.transformContext(working, input.budget) : working;
    if (input.onDemand) {
      // Core first, loaded ones after in load order: loading a tool appends to the prompt, never reorders it.
      const loaded = input.onDemand.loaded(working).filter((t) => !coreNames.has(t.name));
      sdkTools = Object.fromEntries([...coreTools, ...toSdk(loaded)]);
    }
    if (trace) {
      const toolSchemas = Object.keys(sdkTools).sort();
      trace({ step, stage: 'limited', messages: history });
      trace({ step, stage: 'prompt_before', system: input.system, tools: toolSchemas, messages: history });
      trace({
        step,
        stage: 'images',
        messages: history.filter((m) => m.kind === 'user' && (m.attachments?.length ?? 0) > 0),
      });
      trace({
        step,
        stage: 'stream_context',
        system: input.system,
        tools: toolSchemas,
        messages: () => toModelMessages(history),
      });
    }
    input.onEvent({ type: 'start', step, model: input.modelRef });

    const reply = await streamOneStep(input, history, sdkTools);
    trace?.({
      step,
      stage: 'session_after',
      messages: [...history, ...produced.slice(working.length - input.history.length)],
    });
    usage = addUsage(usage, reply.usage);
    if (reply.text) sideEffects = true;
    if (reply.text) {
      const stopReason =
        reply.status !== 'ok' ? reply.status : reply.calls.length > 0 ? 'tool_calls' : reply.finishReason;
      produced.push(assistantMessage(input, reply.text, stopReason, reply.usage));
    }
    if (reply.usage.inputTokens || reply.usage.outputTokens) input.onEvent({ type: 'usage', usage: reply.usage });
    if (reply.status === 'aborted') return finish('aborted', 'aborted');
    if (reply.status === 'error') return finish('error', 'error', reply.error);
    if (!reply.text && reply.calls.length === 0)
      return finish('error', 'error', new EmptyResponseError(input.modelRef));
    if (reply.calls.length === 0) return finish('ok', reply.finishReason);

    for (const call of reply.calls) {
      produced.push(call);
      input.onEvent({ type: 'tool_call', call });
    }
    for (const call of reply.calls) {
      if (input.signal.aborted) return finish('aborted', 'aborted');
      sideEffects = true;
      const result = await runToolCall({
        call,
        tools: toolsByName,
        hooks: input.hooks ?? {},
        // The attempt's model, not the turn's first: after a failover the fallback is the one that reads the result.
        context: { ...input.toolContext, modelRef: input.modelRef },
        signal: input.signal,
        log: input.log,
        newId: input.newId,
        now: input.now,
      });
      produced.push(result);
      input.onEvent({ type: 'tool_result', result });
    }
  }
  return finish('ok', 'max_steps');
}

interface StepOutcome {
  status: 'ok' | 'error' | 'aborted';
  text: string;
  calls: ToolCallMessage[];
  usage: Usage;
  finishReason: string;
  error?: unknown;
}

async function streamOneStep(
  input: AgentLoopInput,
  history: readonly AgentMessage[],
  tools: ToolSet,
): Promise<StepOutcome> {
  // Our own controller: the first error part aborts the HTTP stream at once instead of draining it.
  const { controller, dispose: unlink } = linkedAbortController(input.signal);
  const outcome: StepOutcome = { status: 'ok', text: '', calls: [], usage: zeroUsage(), finishReason: 'stop' };
  try {
    markTurnPhase('model-request');
    const result = streamText({
      model: input.model,
      system: input.system,
      messages: toModelMessages(history),
      tools: Object.keys(tools).length > 0 ? tools : undefined,
      maxOutputTokens: input.maxOutputTokens,
      abortSignal: controller.signal,
      maxRetries: 0,
      onError: () => {},
    });
    let first = true;
    for await (const part of result.fullStream) {
      if (first && part.type !== 'start' && part.type !== 'start-step') {
        first = false;
        markTurnPhase('first-part');
      }
      if (part.type === 'text-delta') {
        outcome.text += part.text;
        input.onEvent({ type: 'text_delta', delta: part.text, text: outcome.text });
      } else if (part.type === 'tool-call') {
        outcome.calls.push({
          kind: 'tool_call',
          id: input.newId(),
          ts: input.now(),
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
        });
      } else if (part.type === 'finish') {
        outcome.usage = toUsage(part.totalUsage);
        outcome.finishReason = part.finishReason;
      } else if (part.type === 'error') {
        controller.abort();
        return { ...outcome, status: 'error', error: part.error };
      } else if (part.type === 'abort') {
        return { ...outcome, status: 'aborted' };
      }
    }
    markTurnPhase('stream-end');
    if (input.signal.aborted) return { ...outcome, status: 'aborted' };
    return outcome;
  } catch (error) {
    if (input.signal.aborted) return { ...outcome, status: 'aborted' };
    return { ...outcome, status: 'error', error };
  } finally {
    unlink();
  }
}

function assistantMessage(input: AgentLoopInput, text: string, stopReason: string, usage: Usage): AssistantMessage {
  return {
    kind: 'assistant',
    id: input.newId(),
    ts: input.now(),
    text,
    model: input.modelRef,
    ...(input.profileId ? { profileId: input.profileId } : {}),
    usage,
    stopReason,
  };
}

function toUsage(usage: LanguageModelUsage): Usage {
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0,
  };
}
