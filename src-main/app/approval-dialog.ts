import type { Clock, Logger } from '../base/index.js';
import { Emitter, type Event } from '../base/index.js';
import type { ApprovalPrompter, ApprovalRequest } from '../exec/index.js';
// The module itself, not exec/index.ts: the shell needs only these few functions.
import { type ApprovalChoice, answerOf, approvalChoices, isDestructive, scopesNamed } from '../exec/index.js';
import type { Notifier } from './notifications.js';
import { type ShellWords, shellWords } from './shell-words.js';

/** Electron's MessageBoxOptions, the fields this sets. */
export interface ApprovalBoxOptions {
  type: 'warning';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
  signal: AbortSignal;
}

/** The parts of Electron's `dialog` and window this needs. */
export interface ApprovalDialogDeps<W> {
  showMessageBox(window: W | undefined, options: ApprovalBoxOptions): Promise<{ response: number }>;
  /** The main window when it is visible: the dialog is then modal to it; otherwise it stands alone. */
  visibleWindow(): W | undefined;
  /**
   * macOS only: a message box without a parent window runs synchronously there
   * (blocking the main process, and so the in-process gateway) and ignores the
   * abort signal. So on macOS the window is brought forward and the box attached
   * to it. Returns the window, or undefined when there is none.
   */
  revealWindow?(): W | undefined;
  notifier: Notifier;
  /** A Hearth window has focus: the person sees the box (and the inline approval), so no notification. */
  windowFocused?(): boolean;
  /** Brings the window forward when the notification is clicked. */
  summon(): void;
  /** The words in the language the person chose (default English). */
  words?(): ShellWords;
  /**
   * The name to give this computer's own approvals while the desktop uses another machine's
   * gateway (so two boxes never look alike); undefined while it uses this computer's.
   */
  localGatewayLabel?(): string | undefined;
  clock: Clock;
  logger: Logger;
}

export const PROMPTER_NAME = 'desktop-dialog';

/**
 * The buttons of the box, in order: the inline card's choices (approval-choices.ts), so "Always"
 * comes once per scope the request allows ("in this folder" too), and a destructive request
 * offers only the narrow scopes with Deny first.
 */
export function offeredDecisions(
  request: Pick<ApprovalRequest, 'allowedDecisions' | 'allowSession' | 'alwaysScopes' | 'risk'>,
): ApprovalChoice[] {
  return approvalChoices(request);
}

function buttonLabel(choice: ApprovalChoice, named: boolean, words: ShellWords): string {
  switch (choice.kind) {
    case 'once':
      return words.allowOnce;
    case 'session':
      return words.allowSession;
    case 'always':
      return named && choice.scope ? words.alwaysAllowScope(choice.scope) : words.alwaysAllow;
    case 'deny':
      return words.deny;
  }
}

export interface NativeApprovalPrompter extends ApprovalPrompter {
  /** Approvals waiting on a native dialog right now (the tray shows the count). */
  readonly pendingCount: number;
  readonly onDidChangePending: Event<number>;
  /**
   * The same box for a request another machine's gateway raised (the desktop uses it):
   * `gateway` names it in the box and the notification. The answer is the caller's to send.
   */
  promptFrom(request: ApprovalRequest, signal: AbortSignal, gateway: string): ReturnType<ApprovalPrompter['prompt']>;
}

/**
 * Asks with a native message box, shown even when the window is hidden, plus a
 * system notification so the user notices. Deny is both the default button and
 * the cancel button, so Enter on a careless keypress and Escape both deny. When
 * another surface answers first (signal) or the request expires, the box is closed
 * and no answer is reported: the first answer wins, the late one is dropped.
 */
export function createNativeApprovalPrompter<W>(deps: ApprovalDialogDeps<W>): NativeApprovalPrompter {
  const pending = new Emitter<number>();
  let count = 0;
  const setCount = (next: number) => {
    count = next;
    pending.fire(count);
  };

  const words = () => deps.words?.() ?? shellWords('en');
  const ask = async (request: ApprovalRequest, signal: AbortSignal, gateway: string | undefined) => {
    if (signal.aborted) return undefined;
    const remaining = request.expiresAtMs - deps.clock.now();
    if (remaining <= 0) return undefined;

    const local = new AbortController();
    const abort = () => local.abort();
    signal.addEventListener('abort', abort, { once: true });
    const expiry = deps.clock.setTimeout(abort, remaining);
    const notification = deps.windowFocused?.()
      ? { close() {} }
      : deps.notifier.notify({
          title: words().approvalNotice(gateway),
          body: request.command,
          onClick: deps.summon,
        });
    setCount(count + 1);
    try {
      const parent = deps.visibleWindow() ?? deps.revealWindow?.();
      if (deps.revealWindow && parent === undefined) {
        // No window to attach to (macOS): abstain; the notification and the Control UI still ask.
        deps.logger.warn('no window for the approval dialog; leaving it to other surfaces', {
          approvalId: request.id,
        });
        await new Promise<void>((resolve) => local.signal.addEventListener('abort', () => resolve(), { once: true }));
        return undefined;
      }
      let abortedBeforeAnswer = false;
      local.signal.addEventListener('abort', () => (abortedBeforeAnswer = true), { once: true });
      const { response } = await deps.showMessageBox(
        parent,
        approvalBoxOptions(request, local.signal, words(), gateway),
      );
      // A box closed by the signal reports the cancel button; that is not the user's answer.
      if (abortedBeforeAnswer) return undefined;
      const answer = answerOf(offeredDecisions(request)[response] ?? { kind: 'deny' });
      // A plain decision where there is nothing more to say (what the dialog always answered).
      return Object.keys(answer).length === 1 ? answer.decision : answer;
    } catch (error) {
      deps.logger.error('approval dialog failed', { approvalId: request.id, error: String(error) });
      return undefined;
    } finally {
      signal.removeEventListener('abort', abort);
      expiry.dispose();
      notification.close();
      setCount(count - 1);
    }
  };
  return {
    name: PROMPTER_NAME,
    get pendingCount() {
      return count;
    },
    onDidChangePending: pending.event,
    prompt: (request, signal) => ask(request, signal, deps.localGatewayLabel?.()),
    promptFrom: (request, signal, gateway) => ask(request, signal, gateway),
  };
}

/** The box in `words`' language; `gateway` names the machine that asks when it is not the one in use alone. */
export function approvalBoxOptions(
  request: ApprovalRequest,
  signal: AbortSignal,
  words: ShellWords = shellWords('en'),
  gateway?: string,
): ApprovalBoxOptions {
  const choices = offeredDecisions(request);
  const denyIndex = choices.findIndex((choice) => choice.kind === 'deny');
  const named = scopesNamed(choices);
  const warning = isDestructive(request) ? `${words.destructive}\n\n` : '';
  return {
    type: 'warning',
    title: gateway ? `${words.approveTitle} · ${gateway}` : words.approveTitle,
    message: `${warning}${words.runThis}\n\n${request.command}`,
    detail: approvalDetail(request, words, gateway),
    // Deny is the default and the cancel button, so Enter or Escape never approves.
    buttons: choices.map((choice) => buttonLabel(choice, named, words)),
    defaultId: denyIndex,
    cancelId: denyIndex,
    noLink: true,
    signal,
  };
}

export function approvalDetail(
  request: ApprovalRequest,
  words: ShellWords = shellWords('en'),
  gateway?: string,
): string {
  const lines = [
    ...(gateway ? [words.fromGateway(gateway)] : []),
    words.folder(request.cwd),
    words.agent(request.agentId),
  ];
  // Worded from their codes in the person's language, as the Control UI's card does.
  const why = words.reasons([...(request.risk?.because ?? []), ...request.reasons]);
  if (request.analysis.parseError) why.push(words.notUnderstood);
  if (why.length > 0) lines.push('', words.whyTitle, ...why.map((line) => `• ${line}`));
  const programs = request.analysis.commands.map((command) => command.name);
  if (programs.length > 0) lines.push('', words.programs([...new Set(programs)].join(', ')));
  const always = offeredDecisions(request).flatMap((choice) => (choice.kind === 'always' ? [choice] : []));
  if (always.length > 1) {
    lines.push('', words.alwaysAddsRuleList);
    for (const { scope } of always)
      if (scope) lines.push(`• ${words.scopeShort(scope)}: ${words.scopeSentence(scope, request.cwd)}`);
  } else if (always[0]?.scope) {
    lines.push('', words.alwaysAddsRule(words.scopeSentence(always[0].scope, request.cwd)));
  } else if (always.length === 1) {
    lines.push('', words.alwaysAddsCommand);
  }
  return lines.join('\n');
}
