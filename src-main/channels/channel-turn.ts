import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ChannelInboundMessage, ChannelReplyStream, RunningChannel } from '../plugins/sdk/channels.js';
import type { ChatEvent } from '../protocol/index.js';
import type { ChannelChat } from './channel-host.js';

/** Telegram's typing indicator lasts ~5 s; renewed a little sooner while the model thinks. */
const TYPING_EVERY_MS = 4_000;

const textOf = (event: { message: { content: { text: string }[] } }) =>
  event.message.content.map((part) => part.text).join('');

/**
 * One inbound message as a turn: chat.send with the message's route (so routing, `/new` and the
 * other chat commands behave as for any client), then the run's `chat` events streamed out
 * through the channel. `started` resolves once chat.send answered; `done` once the reply is out.
 * The run id is derived from the platform's message id, so a message delivered twice is one run.
 */
export function runChannelTurn(input: {
  channelId: string;
  accountId: string;
  message: ChannelInboundMessage;
  /** A docked conversation's session: sent instead of the message's own route. */
  sessionKey?: string;
  running: RunningChannel;
  chat: ChannelChat;
  clock: Clock;
  log: Logger;
  onError(error: string): void;
}): { started: Promise<void>; done: Promise<void> } {
  const { message, running, chat, log } = input;
  const runId = `channel:${input.channelId}:${input.accountId}:${message.messageId}`;
  const outbound = running.outbound;
  let stream: ChannelReplyStream | undefined;
  let typing: Disposable | undefined;
  let subscription: Disposable | undefined;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });

  const stopTyping = () => {
    typing?.dispose();
    typing = undefined;
  };
  const send = async (text: string) => {
    try {
      if (stream) await stream.end(text);
      else await outbound?.sendText(message.target, text);
    } catch (error) {
      log.warn('channel reply could not be delivered', { runId, error: String(error) });
      input.onError(`a reply could not be delivered: ${String(error)}`);
    }
  };
  let ending = false;
  const end = (text: string) => {
    if (ending) return;
    ending = true;
    stopTyping();
    subscription?.dispose();
    void send(text).finally(finish);
  };

  if (outbound?.sendTyping) {
    const ping = () =>
      void outbound.sendTyping!(message.target).catch((error: unknown) =>
        log.debug('typing indicator failed', { error: String(error) }),
      );
    ping();
    typing = input.clock.setInterval(ping, TYPING_EVERY_MS);
  }

  subscription = chat.onEvent((event: ChatEvent) => {
    if (event.runId !== runId || ending) return;
    switch (event.state) {
      case 'delta':
        if (running.streaming) {
          stream ??= running.streaming.begin(message.target);
          stopTyping();
          stream.update(textOf(event));
        }
        break;
      case 'final':
      case 'aborted':
        end(textOf(event) || '(no reply)');
        break;
      case 'error':
        end(`Sorry, the assistant could not answer: ${event.errorMessage}`);
        break;
    }
  });

  const loaded = message.loadAttachments
    ? message.loadAttachments().catch((error: unknown) => ({
        attachments: [],
        notes: [`[an attachment could not be read: ${String(error)}]`],
      }))
    : Promise.resolve({ attachments: message.attachments ?? [], notes: [] as string[] });
  const started = loaded
    .then(({ attachments, notes }) =>
      chat.send({
        ...(input.sessionKey
          ? { sessionKey: input.sessionKey }
          : {
              route: {
                channel: input.channelId,
                accountId: input.accountId,
                peerKind: message.target.peerKind,
                peerId: message.target.peerId,
              },
            }),
        message: [message.text, ...notes].filter((part) => part.trim() !== '').join('\n'),
        idempotencyKey: runId,
        ...(attachments.length > 0 ? { attachments: attachments.slice(0, 16) } : {}),
      }),
    )
    .then((outcome) => {
      if (!outcome.ok) {
        log.warn('channel turn refused', { runId, error: outcome.error.message });
        end(`Sorry, the assistant could not answer: ${outcome.error.message}`);
        return;
      }
      const { status, command } = outcome.payload;
      if (command) end(command.reply);
      else if (status !== 'started' && !ending) {
        // The same message again (in_flight / ok): its run already answers it.
        ending = true;
        stopTyping();
        subscription?.dispose();
        finish();
      }
    })
    .catch((error: unknown) => {
      end(`Sorry, the assistant could not answer: ${String(error)}`);
    });
  return { started, done };
}
