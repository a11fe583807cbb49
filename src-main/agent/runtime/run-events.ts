import type {
  AgentLifecycleData,
  AgentStreamPart,
  ChatEvent,
  ChatEventMessage,
  EventSink,
} from '../../protocol/index.js';
import type { Usage } from '../messages.js';
import type { RunnerEvent } from '../runner/runner-types.js';

/** Where the runtime publishes; the gateway's EventBus fits this shape. */
export type RuntimeEventSink = EventSink<'chat' | 'agent'>;

/** A chat event before the run's id, session and seq are stamped on it. */
type ChatEventBody = ChatEvent extends infer E
  ? E extends ChatEvent
    ? Omit<E, 'runId' | 'sessionKey' | 'seq'>
    : never
  : never;

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

  lifecycle(data: AgentLifecycleData): void {
    this.agent({ stream: 'lifecycle', data });
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
        this.agent({ stream: 'assistant', data: { text: this.text, delta: event.delta } });
        break;
      case 'tool_call':
        this.agent({
          stream: 'tool',
          data: {
            phase: 'call',
            toolCallId: event.call.toolCallId,
            name: event.call.toolName,
            input: event.call.input,
          },
        });
        break;
      case 'tool_result':
        this.agent({
          stream: 'tool',
          data: {
            phase: 'result',
            toolCallId: event.result.toolCallId,
            name: event.result.toolName,
            isError: event.result.isError === true,
            // The result as the transcript keeps it: every device shows it without a reload.
            output: event.result.output,
          },
        });
        break;
      case 'usage':
        this.agent({ stream: 'usage', data: { ...event.usage } });
        break;
      case 'fallback':
        this.lifecycle({ phase: 'fallback', from: event.from, to: event.to, reason: event.reason });
        break;
      case 'retry':
        this.lifecycle({ phase: 'retry', model: event.model, reason: event.reason, waitMs: event.waitMs });
        break;
      default:
        break;
    }
  }

  final(usage: Usage, stopReason: string, model?: string): void {
    this.chat({ state: 'final', message: this.message(), usage, stopReason, model });
    this.lifecycle({ phase: 'end', stopReason });
  }

  aborted(): void {
    this.chat({ state: 'aborted', stopReason: 'rpc', message: this.message() });
    this.lifecycle({ phase: 'aborted' });
  }

  error(errorMessage: string, reason?: string): void {
    this.chat({ state: 'error', errorMessage, ...(reason ? { reason } : {}) });
    this.lifecycle({ phase: 'error', error: errorMessage, ...(reason ? { reason } : {}) });
  }

  private message(): ChatEventMessage {
    return { role: 'assistant', content: [{ type: 'text', text: this.text }] };
  }

  /** Live output of a running tool (exec streams here), so clients see it before the result lands. */
  onToolProgress(text: string): void {
    this.agent({ stream: 'tool_output', data: { text } });
  }

  private chat(body: ChatEventBody): void {
    this.sink.publish('chat', { runId: this.runId, sessionKey: this.sessionKey, seq: ++this.chatSeq, ...body });
  }

  private agent(part: AgentStreamPart): void {
    this.sink.publish('agent', {
      runId: this.runId,
      sessionKey: this.sessionKey,
      seq: ++this.agentSeq,
      ts: this.now(),
      ...part,
    });
  }
}
