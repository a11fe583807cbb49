import type { ImportReasonCode, ImportReasonParams, ImportReasonParamsByCode } from '../protocol/index.js';
import type { SourceFileProblem } from './source-files.js';

/**
 * A reason as an import item carries it: the code and params the Control UI words in the person's
 * language, and the English sentence for the CLI's terminal report and for older clients. Built
 * only by `importReason`, so every reason has a code (the item types accept no bare `reason`).
 */
export type ImportReason = {
  [C in ImportReasonCode]: { reasonCode: C; reasonParams: ImportReasonParamsByCode[C]; reason: string };
}[ImportReasonCode];

/** An item with no reason: none of the three fields, so a bare English `reason` does not build. */
export interface NoImportReason {
  reason?: never;
  reasonCode?: never;
  reasonParams?: never;
}

type Words = { [C in ImportReasonCode]: (params: ImportReasonParamsByCode[C]) => string };

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const english: Words = {
  'unreadable-file': ({ detail }) => `cannot be read (${detail})`,
  'invalid-json': ({ detail }) => `is not valid JSON (${detail})`,
  'invalid-yaml-config': ({ detail }) => `is not valid YAML (${detail}); its model and jobs settings were not read`,
  'unreadable-config': ({ detail }) => `cannot be read (${detail}); its agents, models and bindings were not read`,
  'invalid-json-config': ({ detail }) => `is not valid JSON (${detail}); its agents, models and bindings were not read`,
  'unreadable-session-index': ({ detail }) =>
    `cannot be read (${detail}); the transcripts are imported without their titles`,
  'invalid-json-session-index': ({ detail }) =>
    `is not valid JSON (${detail}); the transcripts are imported without their titles`,
  vanished: () => 'vanished while reading',
  'replaces-starter': () => "replaces Hearth's unedited starter file",
  'unreadable-lines': ({ count }) => `${plural(count, 'unreadable line', 'unreadable lines')} left out`,
  'unmatched-events': ({ count }) => `${plural(count, 'event', 'events')} with no Hearth counterpart left out`,
  'unreadable-lines-and-unmatched-events': ({ unreadable, unmatched }) =>
    `${plural(unreadable, 'unreadable line', 'unreadable lines')} and ${plural(unmatched, 'event', 'events')} with no Hearth counterpart left out`,
  'key-to-secret-store': () => 'the key goes to the secret store, never hearth.json',
  'key-to-secret-store-unknown-provider': ({ provider }) =>
    `the key goes to the secret store; Hearth does not know provider "${provider}": add it under providers in hearth.json`,
  'switched-off': () => 'switched off, as it was',
  'same-key-stored': ({ profile }) => `the same key is stored as ${profile}`,
  'workspace-file-differs': ({ file, source }) =>
    `Hearth's ${file} differs and is kept; merge by hand from the ${source} copy if you want it`,
  'provider-differs': ({ target, kind, baseURL }) => `Hearth's ${target} (${kind} ${baseURL}) is kept`,
  'profile-exists': ({ profile }) => `Hearth already has a profile ${profile}; kept`,
  'default-model-differs': ({ model }) => `Hearth's default model ${model} is kept`,
  'agent-differs': ({ agent }) => `Hearth's agent ${agent} is kept`,
  'cron-job-differs': ({ name }) => `Hearth's job "${name}" is kept`,
  'no-messages': ({ unreadable, unmatched }) => {
    const notes = [
      ...(unreadable > 0 ? [english['unreadable-lines']({ count: unreadable })] : []),
      ...(unmatched > 0 ? [english['unmatched-events']({ count: unmatched })] : []),
    ];
    return `no messages${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  },
  'unknown-agent': ({ agent }) => `agent "${agent}" is neither in Hearth nor in this import`,
  'one-shot-passed': () => 'a one-shot time that has passed',
  'schedule-not-understood': ({ detail }) => `schedule not understood: ${detail}`,
  'cron-no-message': () => 'no message to send',
  'invalid-agent-id': () => 'not a valid Hearth agent id (lowercase letters, digits, "-" or "_")',
  'invalid-agent-id-sessions': () =>
    'not a valid Hearth agent id (lowercase letters, digits, "-" or "_"); its sessions were not read',
  'model-unresolved': () => 'not a provider/model reference Hearth can resolve (an alias?)',
  'custom-provider-no-base-url': () => 'provider "custom" without a base_url',
  'custom-provider-incomplete': () => 'an entry without a name or base_url',
  'not-a-provider-key': () =>
    'not a model provider key (channel tokens: connect the channel with "hearth channels add")',
  'allowlist-not-comparable': () =>
    'Hermes approves by danger pattern ("recursive delete"), Hearth by program: not comparable, approve again when asked',
  'sqlite-sessions': () =>
    'sessions kept in SQLite are not read (Node 20 has no SQLite reader and Hearth adds no dependency for it); ' +
    'export them with "hermes sessions export" to sessions/<id>.jsonl and run the import again',
  'no-adapter': ({ api }) => `api "${api}" has no Hearth adapter`,
  'invalid-provider': ({ detail }) => `not a provider Hearth can use: ${detail}`,
  'key-from-environment': ({ reference }) =>
    `refers to the environment (${reference}), not a key; store the key with "hearth auth set"`,
  'oauth-not-moved': () => 'an OAuth sign-in is not moved: sign in again in Hearth',
  'credential-without-key': ({ type }) => `type "${type}" without a key`,
  'invalid-binding': ({ detail }) => `not a binding Hearth can use: ${detail}`,
  'channel-login-not-moved': ({ channel }) =>
    `channel logins are not moved: connect it again with "hearth channels add ${channel}"`,
  'channel-logins-folder': () =>
    'channel logins (WhatsApp and others) are not moved: link those channels again in Hearth',
  'apply-failed': ({ detail }) => detail,
};

type ParamsOf<C extends ImportReasonCode> =
  ImportReasonParamsByCode[C] extends Record<string, never> ? [] : [params: ImportReasonParamsByCode[C]];

/** The reason `code` with its params, and its English sentence. */
export function importReason<C extends ImportReasonCode>(code: C, ...[params]: ParamsOf<C>): ImportReason {
  const reasonParams = (params ?? {}) as ImportReasonParamsByCode[C];
  const words = english[code] as (params: ImportReasonParams) => string;
  return { reasonCode: code, reasonParams, reason: words(reasonParams) } as ImportReason;
}

const fileReasonCodes = {
  alone: { unreadable: 'unreadable-file', 'invalid-json': 'invalid-json' },
  config: { unreadable: 'unreadable-config', 'invalid-json': 'invalid-json-config' },
  'session-titles': { unreadable: 'unreadable-session-index', 'invalid-json': 'invalid-json-session-index' },
} as const satisfies Record<string, Record<SourceFileProblem['problem'], ImportReasonCode>>;

/**
 * Why a file of the other tool was not used, and what that leaves out: `config` (OpenClaw's
 * agents, models and bindings) or `session-titles` (transcripts come over without titles).
 */
export function fileReason(file: SourceFileProblem, leftOut: keyof typeof fileReasonCodes = 'alone'): ImportReason {
  return importReason(fileReasonCodes[leftOut][file.problem], { detail: file.detail });
}
