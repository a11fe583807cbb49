import { randomInt } from 'node:crypto';
import type { Logger } from '../base/logger.js';
import {
  type AlwaysScope,
  type ApprovalChoice,
  type ApprovalDecision,
  type ApprovalPrompter,
  type ApprovalRequest,
  type ApprovalResolution,
  approvalChoices,
  isDestructive,
  scopesNamed,
} from '../exec/index.js';
import type { ChannelButton, ChannelButtonPress, ChannelTarget, RunningChannel } from '../plugins/sdk/channels.js';
import { APPROVAL_WORDS, type ApprovalWords, type ChannelLanguage } from './channel-approval-words.js';

/** What the host answers for a session: where an approval of its run is offered. */
export interface ApprovalPlace {
  channelId: string;
  target: ChannelTarget;
  running: RunningChannel;
  /** Buttons when the channel has them (capabilities.buttons and a buttons adapter); else text. */
  buttons: boolean;
  /** Set when the prompt goes to the owner's DM for someone else's conversation ("in Ann's chat"). */
  onBehalfOf?: string;
}

/** The approval service as the channels see it: answer a request, read how one was settled. */
export interface ChannelApprovalService {
  resolve(
    id: string,
    decision: ApprovalDecision,
    resolvedBy: string,
    reason?: string,
    allowAlwaysScope?: AlwaysScope,
    more?: { remember?: 'session' },
  ): unknown;
  get(id: string): { resolution?: ApprovalResolution } | undefined;
}

export interface ChannelApprovalsDeps {
  placeFor(sessionKey: string): ApprovalPlace | undefined;
  /** The owner's account on this channel, paired or allowlisted: the only one who may answer. */
  isOwner(channelId: string, senderId: string): boolean;
  approvals(): ChannelApprovalService | undefined;
  /** The language of the prompts, buttons and replies (`ui.language`), read for each prompt; default English. */
  language?(): ChannelLanguage;
  log: Logger;
}

/** What a person can answer in a channel: the service's decisions, and allow-once kept for the chat. */
type ChannelAnswer = ApprovalDecision | 'allow-session';

/** Each answer's button (ids stay the same in every language: a press answers by id). */
function buttonsIn(words: ApprovalWords): Record<ChannelAnswer, ChannelButton> {
  return {
    'allow-once': { id: 'once', label: words.once, style: 'primary' },
    'allow-session': { id: 'session', label: words.session, style: 'primary' },
    'allow-always': { id: 'always', label: words.always, style: 'primary' },
    deny: { id: 'deny', label: words.deny, style: 'danger' },
  };
}

/** `/approve <code> allow|session|always|deny` words (and the full decision names) → an answer. */
const WORDS: Record<string, ChannelAnswer> = {
  allow: 'allow-once',
  once: 'allow-once',
  'allow-once': 'allow-once',
  session: 'allow-session',
  'allow-session': 'allow-session',
  always: 'allow-always',
  'allow-always': 'allow-always',
  deny: 'deny',
};

const WORD_OF: Record<ChannelAnswer, string> = {
  'allow-once': 'allow',
  'allow-session': 'session',
  'allow-always': 'always',
  deny: 'deny',
};

function doneIn(words: ApprovalWords): Record<ChannelAnswer, string> {
  return {
    'allow-once': words.done.once,
    'allow-session': words.done.session,
    'allow-always': words.done.always,
    deny: words.done.deny,
  };
}

/** An answer offered in a channel: the inline card's choices (approval-choices.ts). */
interface Offer {
  answer: ChannelAnswer;
  scope?: AlwaysScope;
  button: ChannelButton;
  /** The `/approve <code> <word>` word. */
  word: string;
}

/**
 * The answers a request offers, in the order shown: "for this chat" right after "once", one
 * "Always" per scope where several are allowed ("in this folder" too), and for a destructive
 * request Deny first and only the narrow scopes (the service offers no others then).
 */
function offersFor(
  request: Pick<ApprovalRequest, 'allowedDecisions' | 'allowSession' | 'alwaysScopes' | 'risk'>,
  words: ApprovalWords,
): Offer[] {
  const BUTTONS = buttonsIn(words);
  const choices = approvalChoices(request);
  const named = scopesNamed(choices);
  const destructive = isDestructive(request);
  return choices.map((choice: ApprovalChoice): Offer => {
    if (choice.kind === 'always') {
      const scope = choice.scope;
      const style = destructive ? undefined : BUTTONS['allow-always'].style;
      if (!named || !scope)
        return {
          answer: 'allow-always',
          ...(scope ? { scope } : {}),
          button: { id: BUTTONS['allow-always'].id, label: BUTTONS['allow-always'].label, ...(style ? { style } : {}) },
          word: 'always',
        };
      return {
        answer: 'allow-always',
        scope,
        button: { id: `always-${scope}`, label: words.alwaysScoped(scope), ...(style ? { style } : {}) },
        word: `always-${scope}`,
      };
    }
    const answer: ChannelAnswer =
      choice.kind === 'once' ? 'allow-once' : choice.kind === 'session' ? 'allow-session' : 'deny';
    // A destructive request: no allow button stands out as the one to press.
    const button =
      destructive && answer !== 'deny' ? { id: BUTTONS[answer].id, label: BUTTONS[answer].label } : BUTTONS[answer];
    return { answer, button, word: WORD_OF[answer] };
  });
}

function doneText(resolution: ApprovalResolution, words: ApprovalWords): string {
  const done = doneIn(words);
  return resolution.decision === 'allow-once' && resolution.remember === 'session'
    ? done['allow-session']
    : done[resolution.decision];
}

/** No 0/O, 1/I/L: typed on a phone. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

interface Offered {
  code: string;
  request: ApprovalRequest;
  place: ApprovalPlace;
  text: string;
  messageId?: string;
  /** The prompt's words: its answers and its final line are in the language it was offered in. */
  words: ApprovalWords;
}

function describeResolver(resolvedBy: string, words: ApprovalWords): string {
  if (resolvedBy.startsWith('channel:')) return words.byWhom(resolvedBy.slice('channel:'.length));
  if (resolvedBy === 'expiry') return words.expired;
  if (resolvedBy === 'cancelled') return words.cancelled;
  return words.byWhom(resolvedBy);
}

/**
 * Exec approvals in channels: a request for a run whose session came from a channel is offered
 * there (buttons where the channel has them, else `/approve <code> allow|session|always|deny`). Only the
 * owner's account (`identityLinks.owner`, paired or allowlisted) may answer; anyone else's press is
 * refused with a notice. The first answer on any surface wins (the approval service settles it),
 * and the prompt is then edited to say how it ended, whoever answered.
 */
export class ChannelApprovals implements ApprovalPrompter {
  readonly name = 'channels';
  private readonly offered = new Map<string, Offered>();

  constructor(private readonly deps: ChannelApprovalsDeps) {}

  covers(request: Pick<ApprovalRequest, 'sessionKey'>): boolean {
    return this.deps.placeFor(request.sessionKey) !== undefined;
  }

  /** Prompts waiting for an answer (tests, the UI). */
  pending(): { code: string; approvalId: string; channel: string }[] {
    return [...this.offered.values()].map((o) => ({
      code: o.code,
      approvalId: o.request.id,
      channel: o.place.channelId,
    }));
  }

  async prompt(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | undefined> {
    const place = this.deps.placeFor(request.sessionKey);
    if (!place || signal.aborted) return undefined;
    const code = this.newCode();
    const words = APPROVAL_WORDS[this.deps.language?.() ?? 'en'];
    // Worded from their codes in the channel's language (the details are the policy's English).
    const why = words.reasons(request.reasons);
    const offers = offersFor(request, words);
    const scoped = offers.flatMap((offer) =>
      offer.scope && offer.word !== 'always'
        ? [`${offer.button.label}${words.colon}${words.scopeSentence(offer.scope, request)}`]
        : [],
    );
    const text = [
      ...(isDestructive(request) ? [words.destructive(words.reasons(request.risk?.because ?? []))] : []),
      words.needed(code, place.onBehalfOf),
      request.command,
      ...(why ? [words.why(why)] : []),
      words.cwd(request.cwd),
      ...scoped,
    ].join('\n');
    const offered: Offered = { code, request, place, text, words };
    this.offered.set(code, offered);
    const log = this.deps.log.child({ channel: place.channelId, approval: request.id });
    try {
      if (place.buttons && place.running.buttons) {
        const sent = await place.running.buttons.sendPrompt(place.target, {
          promptId: code,
          text,
          buttons: offers.map((offer) => offer.button),
        });
        offered.messageId = sent.messageId;
      } else {
        const answers = offers.map((offer) => offer.word).join('|');
        const sent = await place.running.outbound?.sendText(
          place.target,
          `${text}\n${words.answerWith(code, answers)}`,
        );
        if (sent) offered.messageId = sent.messageId;
      }
    } catch (error) {
      log.warn('could not offer an approval in the channel', { error: String(error) });
    }
    // The answer comes through the approval service (a press, /approve, or another surface);
    // this prompter only learns it is over, then says how in the channel.
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    // The service records the resolution right after aborting its prompters.
    await Promise.resolve();
    this.offered.delete(code);
    const resolution = this.deps.approvals()?.get(request.id)?.resolution;
    const outcome = resolution
      ? `${doneText(resolution, words)} (${describeResolver(resolution.resolvedBy, words)})`
      : words.noLongerWaiting;
    await this.settleMessage(offered, outcome).catch((error: unknown) =>
      log.warn('could not update an approval prompt', { error: String(error) }),
    );
    return undefined;
  }

  /** A button press from the channel: the owner's answers the approval, anyone else's is refused. */
  async press(channelId: string, press: ChannelButtonPress): Promise<void> {
    const offered = this.offered.get(press.promptId);
    const answer = (notice: string) =>
      press
        .answer(notice)
        .catch((error: unknown) => this.deps.log.debug('could not answer a button press', { error: String(error) }));
    if (!offered || offered.place.channelId !== channelId) {
      await answer(this.words().pressNoLongerWaiting);
      return;
    }
    if (!this.deps.isOwner(channelId, press.sender.id)) {
      this.deps.log.warn('an approval button was pressed by someone who is not the owner; refused', {
        channel: channelId,
        sender: press.sender.id,
      });
      await answer(offered.words.ownerOnly);
      return;
    }
    const chosen = offersFor(offered.request, offered.words).find((offer) => offer.button.id === press.buttonId);
    await answer(this.answer(offered, chosen, channelId, press.sender.id));
  }

  /**
   * `/approve <code> allow|always|deny` typed in a channel. Undefined when the text is not for an
   * approval this channel offered (the gateway's own `/approve` answers it then); else the reply.
   */
  command(channelId: string, senderId: string, text: string): string | undefined {
    const match = /^\/approve(?:@\S+)?\s+(\S+)\s+(\S+)\s*$/i.exec(text.trim());
    if (!match) return undefined;
    const wanted = match[1]!;
    const offered = [...this.offered.values()].find(
      (o) => o.place.channelId === channelId && (o.code === wanted.toUpperCase() || o.request.id === wanted),
    );
    if (!offered || !this.deps.isOwner(channelId, senderId)) return undefined;
    const said = match[2]!.toLowerCase();
    const offers = offersFor(offered.request, offered.words);
    const answers = offers.map((offer) => offer.word).join('|');
    // `always` is the default scope (the first offered: exact for a destructive command).
    const chosen = offers.find((offer) => offer.word === said) ?? offers.find((offer) => offer.answer === WORDS[said]);
    if (!WORDS[said] && !chosen) return offered.words.unknownAnswer(match[2]!, offered.code, answers);
    return this.answer(offered, chosen, channelId, senderId);
  }

  private answer(offered: Offered, chosen: Offer | undefined, channelId: string, senderId: string): string {
    const { words } = offered;
    const offers = offersFor(offered.request, words);
    if (!chosen) return words.notAllowed(offers.map((offer) => offer.word).join(', '));
    const service = this.deps.approvals();
    if (!service) return words.unavailable;
    const done = doneIn(words);
    const resolvedBy = `channel:${channelId}:${senderId}`;
    try {
      if (chosen.answer === 'allow-session')
        service.resolve(offered.request.id, 'allow-once', resolvedBy, undefined, undefined, { remember: 'session' });
      else service.resolve(offered.request.id, chosen.answer, resolvedBy, undefined, chosen.scope);
      return chosen.scope && chosen.word !== 'always'
        ? `${done[chosen.answer]}${words.colon}${words.scopeShort(chosen.scope)}`
        : done[chosen.answer];
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private async settleMessage(offered: Offered, outcome: string): Promise<void> {
    const { place, messageId } = offered;
    const text = `${offered.text}\n\n${outcome}`;
    if (messageId && place.buttons && place.running.buttons)
      await place.running.buttons.settlePrompt(place.target, messageId, text);
    else await place.running.outbound?.sendText(place.target, offered.words.settled(offered.code, outcome));
  }

  private words(): ApprovalWords {
    return APPROVAL_WORDS[this.deps.language?.() ?? 'en'];
  }

  private newCode(): string {
    for (;;) {
      const code = Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
      if (!this.offered.has(code)) return code;
    }
  }
}
