import type { MessageKey } from '../../i18n/en.js';
import type { Translate } from '../../i18n/translate.js';

/** Why pairing stopped, and what the person holding the phone should do about it. */
export type PairingProblemKind =
  | 'invalid-code'
  | 'expired'
  | 'already-used'
  | 'rejected'
  | 'removed'
  | 'timed-out'
  | 'rate-limited'
  | 'signature'
  | 'certificate'
  | 'unsupported'
  | 'other';

export interface PairingProblem {
  kind: PairingProblemKind;
  /** English, for logs and tests; the screen words it in the UI's language (problemWords). */
  title: string;
  message: string;
  /** What the code, the gateway or main said (their words), put into the message. */
  detail?: string;
  /** rate-limited: how long the computer refuses this device. */
  retryMinutes?: number;
}

/** The problem in the UI's language: `pairing.problem.<kind>.*`, with the detail said where it goes. */
export function problemWords(problem: PairingProblem, t: Translate): { title: string; message: string } {
  const key = (part: string) => `pairing.problem.${problem.kind}.${part}` as MessageKey;
  const newCode = t('pairing.problem.newCode');
  if (problem.kind === 'rate-limited') {
    return {
      title: t(key('title')),
      message: problem.retryMinutes
        ? t('pairing.problem.rate-limited.messageWait', { minutes: problem.retryMinutes })
        : t(key('message')),
    };
  }
  const withDetail = new Set<PairingProblemKind>(['invalid-code', 'signature', 'certificate', 'unsupported', 'other']);
  const detail = withDetail.has(problem.kind) ? (problem.detail ?? t(key('default'))) : '';
  return { title: t(key('title')), message: t(key('message'), { detail, newCode }).trim() };
}

const NEW_CODE = 'Scan a new code: on your computer, open Hearth → Devices → Pair a phone.';

export function pairingProblem(kind: PairingProblemKind, detail?: string, retryMinutes?: number): PairingProblem {
  return {
    ...englishProblem(kind, detail),
    ...(detail ? { detail } : {}),
    ...(retryMinutes ? { retryMinutes } : {}),
  };
}

function englishProblem(kind: PairingProblemKind, detail?: string): PairingProblem {
  switch (kind) {
    case 'invalid-code':
      return {
        kind,
        title: 'This is not a Hearth pairing code',
        message: `${detail ?? 'The code is damaged.'} ${NEW_CODE}`,
      };
    case 'expired':
      return { kind, title: 'This pairing code has expired', message: `Codes last 10 minutes. ${NEW_CODE}` };
    case 'already-used':
      return {
        kind,
        title: 'This pairing code was already used',
        message: `Each code pairs one device, once. ${NEW_CODE}`,
      };
    case 'rejected':
      return {
        kind,
        title: 'Pairing was declined on your computer',
        message: 'If that was a mistake, scan a new code: on your computer, open Hearth → Devices → Pair a phone.',
      };
    case 'removed':
      return {
        kind,
        title: 'This device was removed',
        message: `Your computer no longer accepts this phone. ${NEW_CODE}`,
      };
    case 'timed-out':
      return {
        kind,
        title: 'Pairing timed out',
        message: `Nobody approved this device before the code expired. ${NEW_CODE}`,
      };
    case 'rate-limited':
      return {
        kind,
        title: 'Too many failed attempts',
        message: `Your computer is refusing this device for a few minutes${detail ? ` (${detail})` : ''}. Wait, then scan a fresh code.`,
      };
    case 'signature':
      return {
        kind,
        title: "Your computer didn't accept this device's signature",
        message: `${detail ?? 'The device proof was refused.'} Check the phone's clock, reload this page and scan a new code.`,
      };
    case 'certificate':
      return {
        kind,
        title: "That computer's certificate doesn't match the code",
        message: `${detail ?? 'The gateway showed another TLS certificate than the code pins.'} Nothing was sent to it.`,
      };
    case 'unsupported':
      return {
        kind,
        title: "This browser can't pair",
        message: `${detail ?? 'It lacks the cryptography Hearth needs.'} Try the phone's default browser.`,
      };
    default:
      return { kind: 'other', title: "Pairing didn't work", message: `${detail ?? 'Unknown error.'} ${NEW_CODE}` };
  }
}

/** Maps a refused `connect` (error code + details.code) to what the phone says. */
export function problemFromRefusal(error: { code: string; message: string; details?: unknown }): PairingProblem {
  const details = (error.details ?? {}) as { code?: unknown; retryAfterMs?: unknown };
  const detailCode = typeof details.code === 'string' ? details.code : '';
  if (detailCode === 'AUTH_BOOTSTRAP_TOKEN_INVALID') return pairingProblem('already-used');
  if (detailCode === 'AUTH_DEVICE_TOKEN_MISMATCH' || detailCode === 'AUTH_SCOPE_MISMATCH')
    return pairingProblem('removed');
  if (detailCode === 'AUTH_RATE_LIMITED') {
    const ms = typeof details.retryAfterMs === 'number' ? details.retryAfterMs : undefined;
    const minutes = ms ? Math.ceil(ms / 60_000) : undefined;
    return pairingProblem('rate-limited', minutes ? `try again in ${minutes} min` : undefined, minutes);
  }
  if (detailCode.startsWith('DEVICE_AUTH_')) return pairingProblem('signature', `${error.message}.`);
  return pairingProblem('other', `${error.message}.`);
}
