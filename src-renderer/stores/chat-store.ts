import { createStore, type StoreApi } from 'zustand/vanilla';
import { readApprovalMarker } from '../../src-main/protocol/approval-marker.js';
import type { RequestParams } from '../../src-main/protocol/client/request-options.js';
import type { SessionMessageEvent } from '../../src-main/protocol/events.js';
import {
  type AgentEvent,
  assertNever,
  type ChatEvent,
  type ExecApprovalResolvedEvent,
  type ExecApprovalView,
} from '../../src-main/protocol/index.js';
import {
  type ApprovalState,
  type ChatMessage,
  contentText,
  historyMessages,
  mergeToolResults,
} from './chat-message.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export interface Transcript {
  messages: ChatMessage[];
  loading: boolean;
  loaded: boolean;
  hasMore: boolean;
  /** Where older messages continue (`chat.history` cursor). */
  nextCursor?: string;
  error?: string;
  /** The run now streaming into this session, if any. */
  runId?: string;
}

export interface ModelOption {
  id: string;
  name: string;
  provider: string;
  available: boolean;
}

export interface OutgoingAttachment {
  name: string;
  mediaType: string;
  /** base64 */
  data: string;
}

export interface ChatState {
  transcripts: Record<string, Transcript>;
  models: ModelOption[];
  /** The default model (agents.defaults.model.primary): what new runs use. */
  model?: string;
  modelError?: string;
  load(sessionKey: string): Promise<void>;
  /** Prepends the page before the oldest loaded message. */
  loadOlder(sessionKey: string): Promise<void>;
  send(sessionKey: string, text: string, attachments?: OutgoingAttachment[]): Promise<void>;
  abort(sessionKey: string): Promise<void>;
  /** Starts the session afresh (`sessions.reset`); the old transcript stays on disk. */
  reset(sessionKey: string): Promise<void>;
  /** Retry after an error or a stop, and Regenerate: the last message is answered again, never sent twice. */
  retry(sessionKey: string): Promise<void>;
  /** Edit and resend: `text` takes the place of the person's last message, and the answer after it goes. */
  editLast(sessionKey: string, text: string): Promise<void>;
  setModel(model: string): Promise<void>;
  loadModels(): Promise<void>;
  /** The prompt-cache trace of a session's recent LLM calls (`trace.show`): why a cache missed. */
  cacheTrace: Record<string, { calls: CacheTraceCall[]; error?: string }>;
  loadCacheTrace(sessionKey: string): Promise<void>;
}

export interface CacheTraceCall {
  callId: string;
  ts: number;
  verdict: string;
  reason?: string;
}

const emptyTranscript: Transcript = { messages: [], loading: false, loaded: false, hasMore: false };

let localIds = 0;
const localId = (prefix: string) => `${prefix}-${++localIds}`;

export function createChatStore(client: GatewayPort): StoreApi<ChatState> & { dispose(): void } {
  const store = createStore<ChatState>((set, get) => {
    const patch = (sessionKey: string, change: (t: Transcript) => Partial<Transcript>) =>
      set((state) => {
        const current = state.transcripts[sessionKey] ?? emptyTranscript;
        return { transcripts: { ...state.transcripts, [sessionKey]: { ...current, ...change(current) } } };
      });

    /** chat.send; a refusal shows where the answer would have been, so Retry is offered there. */
    const startRun = async (sessionKey: string, params: RequestParams<'chat.send'>) => {
      try {
        const { runId } = await client.request('chat.send', params);
        if (runId) patch(sessionKey, (t) => ({ runId: t.runId ?? runId }));
      } catch (error) {
        patch(sessionKey, (t) => ({
          messages: [
            ...t.messages,
            {
              id: localId('e'),
              role: 'assistant',
              text: '',
              status: 'error',
              error: errorText(error),
              ts: Date.now(),
              // A refused plain send stored nothing; a refused retry or edit left the transcript as it was.
              sendRefused: params.replace === undefined,
            },
          ],
        }));
      }
    };

    return {
      transcripts: {},
      models: [],
      async load(sessionKey) {
        const shownBefore = new Set((get().transcripts[sessionKey]?.messages ?? []).map((m) => m.id));
        patch(sessionKey, () => ({ loading: true }));
        try {
          const result = await client.request('chat.history', { sessionKey, limit: 1000 });
          const messages = historyMessages(result.messages ?? []);
          // What was sent or streamed while history was loading stays: the history may predate it.
          // A sent message the history already holds (it reached the server first) is not shown twice.
          const lastLoadedUser = [...messages].reverse().find((m) => m.role === 'user')?.text;
          // Likewise an answer that finished while the history was read, and was stored in time to be in it.
          const loadedAnswers = new Set(messages.filter((m) => m.role === 'assistant').map((m) => m.text));
          patch(sessionKey, (t) => ({
            messages: [
              ...messages,
              ...t.messages.filter(
                (m) =>
                  m.status === 'streaming' ||
                  (!shownBefore.has(m.id) &&
                    !(m.role === 'user' && m.text === lastLoadedUser) &&
                    !(m.role === 'assistant' && m.status === 'done' && loadedAnswers.has(m.text))),
              ),
            ],
            loading: false,
            loaded: true,
            hasMore: result.hasMore === true,
            nextCursor: result.nextCursor || undefined,
            error: undefined,
          }));
        } catch (error) {
          patch(sessionKey, () => ({ loading: false, error: errorText(error) }));
        }
      },
      async loadOlder(sessionKey) {
        const current = get().transcripts[sessionKey];
        if (!current?.hasMore || !current.nextCursor || current.loading) return;
        patch(sessionKey, () => ({ loading: true }));
        try {
          const result = await client.request('chat.history', { sessionKey, limit: 500, cursor: current.nextCursor });
          const older = historyMessages(result.messages ?? []);
          patch(sessionKey, (t) => {
            const known = new Set(t.messages.map((m) => m.id));
            return {
              messages: [...older.filter((m) => !known.has(m.id)), ...t.messages],
              loading: false,
              hasMore: result.hasMore === true,
              nextCursor: result.nextCursor || undefined,
            };
          });
        } catch (error) {
          patch(sessionKey, () => ({ loading: false, error: errorText(error) }));
        }
      },
      async send(sessionKey, text, attachments = []) {
        const trimmed = text.trim();
        if (!trimmed && attachments.length === 0) return;
        const user: ChatMessage = {
          id: localId('u'),
          role: 'user',
          text: trimmed,
          ts: Date.now(),
          attachments: attachments.map(({ name, mediaType }) => ({ name, mediaType })),
        };
        patch(sessionKey, (t) => ({ messages: [...t.messages, user], error: undefined }));
        const params: RequestParams<'chat.send'> = { sessionKey, message: trimmed };
        if (attachments.length > 0) {
          params.attachments = attachments.map((a) => ({
            kind: a.mediaType.startsWith('image/') ? ('image' as const) : ('file' as const),
            mediaType: a.mediaType,
            name: a.name,
            data: a.data,
          }));
        }
        await startRun(sessionKey, params);
      },
      async abort(sessionKey) {
        const runId = get().transcripts[sessionKey]?.runId;
        await client.request('chat.abort', runId ? { sessionKey, runId } : { sessionKey });
      },
      async reset(sessionKey) {
        try {
          await client.request('sessions.reset', { key: sessionKey, reason: 'new conversation from the Control UI' });
          patch(sessionKey, () => ({
            messages: [],
            runId: undefined,
            hasMore: false,
            nextCursor: undefined,
            error: undefined,
          }));
        } catch (error) {
          patch(sessionKey, () => ({ error: errorText(error) }));
        }
      },
      async retry(sessionKey) {
        const messages = get().transcripts[sessionKey]?.messages ?? [];
        const at = messages.findLastIndex((m) => m.role === 'user');
        if (at < 0) return;
        const lastUser = messages[at]!;
        if (messages.at(-1)?.sendRefused) {
          // Nothing reached the server: the message is sent now, shown once.
          patch(sessionKey, (t) => ({ messages: t.messages.slice(0, at), error: undefined }));
          await get().send(sessionKey, lastUser.text);
          return;
        }
        // The old answer (failed, stopped or done) goes; the server answers the same message again.
        patch(sessionKey, (t) => ({ messages: t.messages.slice(0, at + 1), error: undefined }));
        await startRun(sessionKey, { sessionKey, message: '', replace: 'last-answer' });
      },
      async editLast(sessionKey, text) {
        const trimmed = text.trim();
        const messages = get().transcripts[sessionKey]?.messages ?? [];
        const at = messages.findLastIndex((m) => m.role === 'user');
        if (at < 0 || !trimmed) return;
        const edited: ChatMessage = { ...messages[at]!, id: localId('u'), text: trimmed, stored: false, ts: undefined };
        patch(sessionKey, (t) => ({ messages: [...t.messages.slice(0, at), edited], error: undefined }));
        await startRun(sessionKey, { sessionKey, message: trimmed, replace: 'last-message' });
      },
      cacheTrace: {},
      async loadCacheTrace(sessionKey) {
        try {
          const result = await client.request('trace.show', { sessionKey, limit: 10 });
          const calls = result.calls.map(({ callId, ts, verdict, reason }) => ({ callId, ts, verdict, reason }));
          set((state) => ({ cacheTrace: { ...state.cacheTrace, [sessionKey]: { calls } } }));
        } catch (error) {
          set((state) => ({
            cacheTrace: { ...state.cacheTrace, [sessionKey]: { calls: [], error: errorText(error) } },
          }));
        }
      },
      async setModel(model) {
        const previous = get().model;
        set({ model, modelError: undefined });
        try {
          // A merge patch: only the primary changes, fallbacks stay as configured.
          await client.request('config.patch', { patch: { agents: { defaults: { model: { primary: model } } } } });
        } catch (error) {
          set({ model: previous, modelError: errorText(error) });
        }
      },
      async loadModels() {
        try {
          const result = await client.request('models.list', {});
          const models = result.models.map(({ id, name, provider, available }) => ({
            id,
            name: name || id,
            provider,
            available,
          }));
          set({ models, model: result.primary || undefined });
        } catch {
          set({ models: [] });
        }
      },
    };
  });

  /** The assistant message a run streams into, made when the run's first event arrives. */
  const runMessageIndex = (messages: ChatMessage[], runId: string): number => {
    const at = messages.findIndex((m) => m.role === 'assistant' && m.runId === runId);
    if (at >= 0) return at;
    messages.push({ id: `run-${runId}`, role: 'assistant', text: '', status: 'streaming', runId });
    return messages.length - 1;
  };

  const onChat = (payload: ChatEvent) => {
    const { sessionKey, runId } = payload;
    if (!sessionKey || !runId) return;
    store.setState((s) => {
      const t = s.transcripts[sessionKey] ?? emptyTranscript;
      const messages = [...t.messages];
      const at = runMessageIndex(messages, runId);
      // Whatever the event, the run is no longer waiting to try again.
      const { waiting: _waited, ...current } = messages[at]!;
      let next: ChatMessage;
      let activeRun: string | undefined;
      switch (payload.state) {
        case 'delta':
          next = {
            ...current,
            text: contentText(payload.message.content) || current.text + payload.deltaText,
            status: 'streaming',
          };
          activeRun = runId;
          break;
        case 'final':
          next = {
            ...current,
            text: contentText(payload.message.content) || current.text,
            status: 'done',
            model: payload.model || current.model,
            ts: current.ts ?? Date.now(),
          };
          break;
        case 'aborted':
          next = { ...current, status: 'aborted', ts: current.ts ?? Date.now() };
          break;
        case 'error':
          next = {
            ...current,
            status: 'error',
            error: payload.errorMessage || 'the run failed',
            ts: current.ts ?? Date.now(),
          };
          break;
        default:
          return assertNever(payload);
      }
      messages[at] = next;
      return { transcripts: { ...s.transcripts, [sessionKey]: { ...t, messages, runId: activeRun } } };
    });
  };

  /** `agent` events with stream `tool` carry tool calls as they happen (RunEventPublisher). */
  /** A run that waits before trying again says so in its answer, instead of a silent spinner for up to 30 s. */
  const onWait = (sessionKey: string, runId: string, waiting: { reason: string; waitMs: number }) => {
    store.setState((s) => {
      const t = s.transcripts[sessionKey] ?? emptyTranscript;
      const messages = [...t.messages];
      const at = runMessageIndex(messages, runId);
      messages[at] = { ...messages[at]!, waiting };
      return { transcripts: { ...s.transcripts, [sessionKey]: { ...t, messages } } };
    });
  };

  const onAgent = (payload: AgentEvent) => {
    if (payload.stream === 'lifecycle') {
      const { data, sessionKey, runId } = payload;
      if (data.phase === 'retry' && data.waitMs > 0 && sessionKey && runId)
        onWait(sessionKey, runId, { reason: data.reason, waitMs: data.waitMs });
      return;
    }
    if (payload.stream !== 'tool') return;
    const { data, sessionKey } = payload;
    const { toolCallId } = data;
    if (!sessionKey || !toolCallId) return;
    updateTool(
      sessionKey,
      (m) => m.toolCallId === toolCallId,
      (base) => ({
        ...(base ?? { id: `tool-${toolCallId}`, role: 'tool', text: '', toolCallId, status: 'streaming' }),
        toolName: data.name || base?.toolName || 'tool',
        toolInput: (data.phase === 'call' ? data.input : undefined) ?? base?.toolInput,
        status: data.phase === 'result' ? 'done' : (base?.status ?? 'streaming'),
        error: data.phase === 'result' && data.isError ? 'the tool reported an error' : base?.error,
        // The result arrives with the event: shown live, on every device, no reload.
        ...(data.phase === 'result' && data.output !== undefined ? outputOf(data.output, base) : {}),
      }),
    );
  };

  /** A result's output without its approval marker line, and the decision the marker names. */
  const outputOf = (raw: string, base: ChatMessage | undefined): Partial<ChatMessage> => {
    const { marker, output } = readApprovalMarker(raw);
    if (!marker) return { toolOutput: output };
    return {
      toolOutput: output,
      decision: base?.decision ?? marker,
      approval: marker.decision === 'deny' ? 'denied' : 'allowed',
    };
  };

  /**
   * A message that landed in a transcript (`session.message`): what another device sent shows here
   * too (a phone's message on the desktop), in front of the answer it started.
   */
  const onSessionMessage = (payload: SessionMessageEvent) => {
    const { sessionKey, message } = payload;
    const t = store.getState().transcripts[sessionKey];
    if (!t?.loaded) return;
    if (message.supersedes !== undefined) {
      // An edit, Regenerate or Retry (here or on another device) replaced a branch: the history
      // no longer holds it, and reading it again drops it here too (a streaming answer stays).
      if (!t.loading) void store.getState().load(sessionKey);
      return;
    }
    if (message.kind !== 'user' && message.kind !== 'tool_result') return;
    const [incoming] = historyMessages([message]);
    if (!incoming || t.messages.some((m) => m.id === incoming.id)) return;
    store.setState((s) => {
      const current = s.transcripts[sessionKey] ?? emptyTranscript;
      const messages = [...current.messages];
      if (incoming.role === 'tool') {
        // Live events usually brought it already; a result they missed fills its call.
        const call = messages.findIndex((m) => m.role === 'tool' && m.toolCallId === incoming.toolCallId);
        if (call < 0 || messages[call]!.toolOutput !== undefined) return s;
        messages[call] = mergeToolResults([messages[call]!, incoming])[0]!;
      } else {
        // This device's own message: it now has its transcript id.
        const own = messages.findIndex((m) => m.role === 'user' && !m.stored && m.text === incoming.text);
        if (own >= 0) messages[own] = { ...messages[own]!, id: incoming.id, stored: true, ts: incoming.ts };
        else {
          const runId = message.idempotencyKey?.split(':')[0];
          const answer = runId ? messages.findIndex((m) => m.role === 'assistant' && m.runId === runId) : -1;
          if (answer >= 0) messages.splice(answer, 0, incoming);
          else messages.push(incoming);
        }
      }
      return { transcripts: { ...s.transcripts, [sessionKey]: { ...current, messages } } };
    });
  };

  /** Finds a tool message in a session (or adds one, before the still-empty streaming answer) and replaces it. */
  const updateTool = (
    sessionKey: string,
    match: (m: ChatMessage) => boolean,
    change: (base: ChatMessage | undefined) => ChatMessage | undefined,
  ) => {
    store.setState((s) => {
      const t = s.transcripts[sessionKey] ?? emptyTranscript;
      const messages = [...t.messages];
      let at = -1;
      for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'tool' && match(messages[i]!)) at = i;
      const next = change(at >= 0 ? messages[at] : undefined);
      if (!next) return s;
      if (at >= 0) messages[at] = next;
      else {
        const streaming = messages.findIndex((m) => m.role === 'assistant' && m.status === 'streaming');
        if (streaming >= 0 && !messages[streaming]!.text) messages.splice(streaming, 0, next);
        else messages.push(next);
      }
      return { transcripts: { ...s.transcripts, [sessionKey]: { ...t, messages } } };
    });
  };

  // An exec tool call waiting for approval shows it inline; the approval names its session.
  const onApprovalRequested = (payload: ExecApprovalView) => {
    const { sessionKey, id } = payload;
    if (!sessionKey || !id) return;
    updateTool(
      sessionKey,
      (m) => m.status === 'streaming' && !m.approvalId,
      (base) => (base ? { ...base, approval: 'pending', approvalId: id } : undefined),
    );
  };
  const onApprovalResolved = (payload: ExecApprovalResolvedEvent) => {
    const { id } = payload;
    const approval: ApprovalState = payload.decision === 'deny' ? 'denied' : 'allowed';
    const decision = {
      decision: payload.remember === 'session' ? ('allow-session' as const) : payload.decision,
      by: payload.resolvedBy,
    };
    for (const sessionKey of Object.keys(store.getState().transcripts)) {
      updateTool(
        sessionKey,
        (m) => m.approvalId === id,
        (base) => (base ? { ...base, approval, decision } : undefined),
      );
    }
  };

  const subscriptions = [
    client.on('chat', onChat),
    client.on('agent', onAgent),
    client.on('exec.approval.requested', onApprovalRequested),
    client.on('exec.approval.resolved', onApprovalResolved),
    client.on('session.message', onSessionMessage),
    // The picker follows the config live: a save from onboarding or a hand edit of hearth.json
    // changes the primary and the providers in play; a new or removed key changes availability.
    client.on('config.changed', () => void store.getState().loadModels()),
    client.on('auth.profiles.changed', () => void store.getState().loadModels()),
    client.onDidConnect(() => {
      void store.getState().loadModels();
      for (const key of Object.keys(store.getState().transcripts)) void store.getState().load(key);
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
