import type { ChannelReplyStream } from './channels.js';

// A streamed reply as one message edited in place, for channels whose platform can edit
// (Telegram, Discord, Slack): the person sees the answer start at once, then grow, without one
// platform call per model token, and ends with the whole reply rendered, continued in further
// messages when it is longer than one message may be.

export interface EditInPlaceOptions<Id> {
  /** Fewest ms between two calls for this reply (platforms rate-limit edits per chat). */
  editIntervalMs: number;
  /** A failed preview send or edit: reported, never thrown (the final text is still sent). */
  onError(error: unknown): void;
  /** What a person sees of a partial text: rendered for the platform, cut to fit one message. */
  preview(textSoFar: string): string;
  /** Sends the first preview as a new message; resolves with its id. */
  send(preview: string): Promise<Id>;
  /** Edits message `id` to show `preview`. */
  edit(id: Id, preview: string): Promise<void>;
  /** A failure that means the message already shows this text (Telegram's "message is not modified"). */
  isUnchanged?(error: unknown): boolean;
  /** The final text as one or more parts, each fitting one message. */
  finalParts(finalText: string): readonly string[];
  /** What an empty reply shows instead (default `(no reply)`): a message cannot be empty. */
  emptyReply?: string;
  /**
   * Puts the first final part into the message the previews went to. `alreadyShown`: the last
   * preview that reached the platform is this very part (an edit would change nothing).
   */
  editFinal(id: Id, part: string, alreadyShown: boolean): Promise<void>;
  /** Sends a final part as a new message: `index` 0 when no preview was sent, else a follow-up. */
  sendFinal(part: string, index: number): Promise<void>;
}

/**
 * Starts one reply. `update` coalesces texts into at most one call per `editIntervalMs`: the
 * first is sent at once, later ones wait for the interval and only the newest is sent. Calls for
 * one reply never overlap, so edits land in order. What a call sent is recorded as shown only
 * once it succeeded, and it is the text the call carried, not newer text that arrived while it
 * was on the wire (recording that would let the newer text be taken as shown, and skip it).
 * `end` waits for the call in flight and the interval, then puts the final text in.
 */
export function startEditInPlaceStream<Id>(options: EditInPlaceOptions<Id>): ChannelReplyStream {
  let messageId: Id | undefined;
  let sent = false;
  /** The source text the platform shows, and the preview it was shown as. */
  let shown = '';
  let shownPreview: string | undefined;
  let latest = '';
  let lastCallAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let ended = false;

  const push = () => {
    timer = undefined;
    chain = chain.then(async () => {
      if (ended || latest === shown || latest.trim() === '') return;
      // What this call shows: more text may arrive while it is on the wire, and must still be sent.
      const sending = latest;
      const text = options.preview(sending);
      lastCallAt = Date.now();
      try {
        if (!sent) {
          messageId = await options.send(text);
          sent = true;
        } else await options.edit(messageId as Id, text);
        shown = sending;
        shownPreview = text;
      } catch (error) {
        if (sent && options.isUnchanged?.(error)) {
          shown = sending;
          shownPreview = text;
        } else options.onError(error);
      }
    });
  };

  return {
    update(textSoFar) {
      if (ended) return;
      latest = textSoFar;
      if (timer) return;
      const wait = lastCallAt === 0 ? 0 : lastCallAt + options.editIntervalMs - Date.now();
      if (wait <= 0) push();
      else timer = setTimeout(push, wait);
    },
    async end(finalText) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
      ended = true;
      const parts = options.finalParts(finalText.trim() === '' ? (options.emptyReply ?? '(no reply)') : finalText);
      const wait = lastCallAt + options.editIntervalMs - Date.now();
      if (sent && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      for (const [index, part] of parts.entries()) {
        if (index === 0 && sent) await options.editFinal(messageId as Id, part, part === shownPreview);
        else await options.sendFinal(part, index);
      }
    },
  };
}
