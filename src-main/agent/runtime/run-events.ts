import type { Usage } from '../messages.js';
import type { RunnerEvent } from '../runner/runner-types.js';

/** Where the runtime publishes; the gateway's EventBus fits this shape. */
export interface RuntimeEventSink {
  publish(event: 'chat' | 'agent', payload: Record<string, unknown>): void;
}

/**
 * Maps one run's runner events to the wire: `chat` events (delta / final / aborted / error,
 * PROTOCOL.md §7) and `agent` events (lifecycle / assistant / tool / usage), each with its own
 * per-run seq so a client can detect gaps.
 */
export class RunEventPublisher {
  private chatSeq = 0;
  private agentSeq = 0;
  /** Assistant text of the whole run (every step), what `message` carries. */
  text = '';
  private stepText = '';

  constructor(
    private readonly sink: RuntimeEventSink,
    private readonly runId: string,
    private readonly sessionKey: string,
    private readonly now: () => number,
  ) {}

  lifecycle(
    phase: 'start' | 'end' | 'error' | 'aborted' | 'fallback' | 'retry',
    extra: Record<string, unknown> = {},
  ): void {
    this.agent('lifecycle', { phase, ...extra });
  }

  onRunnerEvent(event: RunnerEvent): void {
    switch (event.type) {
      case 'start':
        // A new step appends to the run's text; separate it from the previous step's words.
        if (this.text && this.stepText) this.text += '\n\n';
        this.stepText = '';
        break;
      case 'text_delta':
        this.stepText += event.delta;
        this.text += event.delta;
        this.chat({ state: 'delta', deltaText: event.delta, message: this.message() });
        this.agent('assistant', { text: this.text, delta: event.delta });
        break;
      case 'tool_call':
        this.agent('tool', {
          phase: 'call',
          toolCallId: event.call.toolCallId,
          name: event.call.toolName,
          input: event.call.input,
        });
        break;
      case 'tool_result':
        this.agent('tool', {
          phase: 'result',
          toolCallId: event.result.toolCallId,
          name: event.result.toolName,
          isError: event.result.isError === true,
        });
        break;
      case 'usage':
        this.agent('usage', { ...event.usage });
        break;
      case 'fallback':
        this.lifecycle('fallback', { from: event.from, to: event.to, reason: event.reason });
        break;
      case 'retry':
        this.lifecycle('retry', { model: event.model, reason: event.reason, waitMs: event.waitMs });
        break;
      default:
        break;
    }
  }

  final(usage: Usage, stopReason: string, model?: string): void {
    this.chat({ state: 'final', message: this.message(), usage, stopReason, model });
    this.lifecycle('end', { stopReason });
  }

  aborted(): void {
    this.chat({ state: 'aborted', stopReason: 'rpc', message: this.message() });
    this.lifecycle('aborted');
  }

  error(errorMessage: string, reason?: string): void {
    this.chat({ state: 'error', errorMessage, ...(reason ? { reason } : {}) });
    this.lifecycle('error', { error: errorMessage, ...(reason ? { reason } : {}) });
  }

  private message() {
    return { role: 'assistant', content: [{ type: 'text', text: this.text }] };
  }

  /** Live output of a running tool (exec streams here), so clients see it before the result lands. */
  onToolProgress(text: string): void {
    this.agent('tool_output', { text });
  }

  private chat(payload: Record<string, unknown>): void {
    this.sink.publish('chat', { runId: this.runId, sessionKey: this.sessionKey, seq: ++this.chatSeq, ...payload });
  }

  private agent(stream: string, data: Record<string, unknown>): void {
    this.sink.publish('agent', {
      runId: this.runId,
      sessionKey: this.sessionKey,
      seq: ++this.agentSeq,
      stream,
      ts: this.now(),
      data,
    });
  }
}
