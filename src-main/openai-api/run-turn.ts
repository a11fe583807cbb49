import type { Disposable } from '../base/disposable.js';
import type { BearerResult } from '../gateway/auth/bearer-token.js';
import type { PeerInfo } from '../gateway/auth/handshake.js';
import type { CallerIdentity } from '../gateway/caller.js';
import type { DispatchOutcome } from '../gateway/method-router.js';
import type { ChatEvent, TokenUsage, WireError } from '../protocol/index.js';
import type { ChatSendResult } from '../protocol/methods/chat.js';

/** What the HTTP APIs need of the gateway (GatewayCore has it): auth, calls, events, for a caller without a socket. */
export interface ApiGateway {
  authenticateBearer(token: string | undefined, peer: PeerInfo): Promise<BearerResult>;
  callAs(caller: CallerIdentity, method: string, params: unknown, signal: AbortSignal): Promise<DispatchOutcome>;
  subscribeAs(caller: CallerIdentity, listener: (event: string, payload: unknown) => void): Disposable;
}

/**
 * What one turn needs: calls and events for one caller. `channelFor` makes one from the gateway and
 * an HTTP caller; the MCP server makes one from its gateway connection.
 */
export interface TurnChannel {
  call(method: string, params: unknown, signal: AbortSignal): Promise<DispatchOutcome>;
  subscribe(listener: (event: string, payload: unknown) => void): Disposable;
}

export function channelFor(gateway: ApiGateway, caller: CallerIdentity): TurnChannel {
  return {
    call: (method, params, signal) => gateway.callAs(caller, method, params, signal),
    subscribe: (listener) => gateway.subscribeAs(caller, listener),
  };
}

export type TurnOutcome =
  | { ok: true; text: string; usage?: TokenUsage; stopReason?: string; model?: string }
  | { ok: false; error: WireError };

export interface TurnInput {
  sessionKey: string;
  message: string;
  /** The run id (chat.send's idempotency key): the same id twice is the same run. */
  runId: string;
  /** Aborts the run (chat.abort) when it fires before the run ended: the client went away. */
  signal: AbortSignal;
  /** Each piece of the answer as it streams. */
  onDelta?(text: string): void;
}

function textOfMessage(message: { content: { text: string }[] } | undefined): string {
  return message?.content.map((part) => part.text).join('') ?? '';
}

/**
 * One turn through `chat.send`, the path every chat client takes (lanes, approvals, memory, the
 * `/approve` and `/new` commands), for a caller without a socket: events are watched before the
 * send, so none is missed, and the run's own `chat` events are its answer.
 */
export async function runChatTurn(channel: TurnChannel, input: TurnInput): Promise<TurnOutcome> {
  let settle!: (outcome: TurnOutcome) => void;
  const ended = new Promise<TurnOutcome>((resolve) => {
    settle = resolve;
  });
  let streamed = '';
  const watch = channel.subscribe((event, payload) => {
    if (event !== 'chat') return;
    const chat = payload as ChatEvent;
    if (chat.runId !== input.runId) return;
    switch (chat.state) {
      case 'delta':
        streamed += chat.deltaText;
        input.onDelta?.(chat.deltaText);
        return;
      case 'final':
        settle({
          ok: true,
          text: textOfMessage(chat.message),
          usage: chat.usage,
          stopReason: chat.stopReason,
          model: chat.model,
        });
        return;
      case 'aborted':
        settle({ ok: true, text: textOfMessage(chat.message) || streamed, stopReason: 'aborted' });
        return;
      case 'error':
        settle({
          ok: false,
          error: { code: 'PROVIDER_ERROR', message: chat.errorMessage, details: { reason: chat.reason } },
        });
        return;
    }
  });
  const abortRun = () => {
    void channel.call('chat.abort', { sessionKey: input.sessionKey, runId: input.runId }, new AbortController().signal);
  };
  try {
    const sent = await channel.call(
      'chat.send',
      { sessionKey: input.sessionKey, message: input.message, idempotencyKey: input.runId },
      input.signal,
    );
    if (!sent.ok) return { ok: false, error: sent.error };
    const result = sent.payload as ChatSendResult;
    // A chat command (`/approve …`, `/new`) is answered by the gateway itself, without a turn.
    if (result.command) return { ok: true, text: result.command.reply, stopReason: 'command' };
    if (input.signal.aborted) abortRun();
    else input.signal.addEventListener('abort', abortRun, { once: true });
    return await ended;
  } finally {
    input.signal.removeEventListener('abort', abortRun);
    watch.dispose();
  }
}
