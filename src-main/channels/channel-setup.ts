import { HearthError } from '../base/errors.js';
import type { ChannelPlugin, ChannelSetupAdapter, ChannelSetupField, DmPolicy } from '../plugins/sdk/channels.js';
import { splitChannelConfig } from './channel-settings.js';

// The setup wizard of a channel (docs/CHANNELS.md "Setting up from the app"): what it asks
// (the plugin's setup adapter, or one derived from its config schema), and how the answers
// become a `channels.<id>` block plus secret store entries. Secrets never reach hearth.json.

type Value = string | number | boolean;

/** A field as the wizard shows it: with its value now (secrets: only whether one is stored). */
export interface SetupFieldState extends ChannelSetupField {
  value?: Value;
  /** secret: the entry the value goes to, and whether it holds one already. */
  secretAccount?: string;
  stored?: boolean;
}

const dmPolicyLabels: Record<DmPolicy, string> = {
  pairing: 'Pairing: strangers get a code you approve here',
  allowlist: 'Allowlist: only the ids in allowFrom',
  open: 'Open: anyone who can reach the bot',
  disabled: 'No direct messages',
};

/** The host's own question, asked for every channel: who may write to it. */
function dmPolicyField(plugin: ChannelPlugin): ChannelSetupField {
  return {
    key: 'dmPolicy',
    label: 'Who may write to it',
    help: 'A sender who is not approved never reaches the agent.',
    kind: 'select',
    default: plugin.security?.defaultDmPolicy ?? 'pairing',
    options: (Object.keys(dmPolicyLabels) as DmPolicy[]).map((value) => ({ value, label: dmPolicyLabels[value] })),
  };
}

/** A wizard from the JSON Schema and the declared secrets, for a plugin without a setup adapter. */
function derivedSetup(plugin: ChannelPlugin): ChannelSetupAdapter {
  const schema = plugin.config.schema;
  const secretKeys = new Set(
    Object.entries(schema.properties ?? {})
      .filter(([, property]) => (plugin.config.secrets ?? []).some((secret) => secret.account === property.default))
      .map(([key]) => key),
  );
  const fields: ChannelSetupField[] = (plugin.config.secrets ?? []).map((secret) => {
    const configKey = [...secretKeys].find((key) => schema.properties?.[key]?.default === secret.account);
    return {
      key: secret.account.split('.').pop() ?? secret.account,
      label: secret.description,
      kind: 'secret' as const,
      secret: { account: secret.account, ...(configKey ? { configKey } : {}) },
    };
  });
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (secretKeys.has(key)) continue;
    const kind: ChannelSetupField['kind'] = property.enum
      ? 'select'
      : property.type === 'integer' || property.type === 'number'
        ? 'number'
        : property.type === 'boolean'
          ? 'boolean'
          : 'text';
    const fallback = property.default;
    fields.push({
      key,
      label: property.title ?? key,
      kind,
      ...(schema.required?.includes(key) ? { required: true } : {}),
      ...(typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean'
        ? { default: fallback }
        : {}),
      ...(property.enum
        ? { options: property.enum.map((value) => ({ value: String(value), label: String(value) })) }
        : {}),
    });
  }
  return { fields };
}

/** What the wizard asks for this plugin: its own fields, then the host's `dmPolicy` unless it asks that itself. */
export function setupOf(plugin: ChannelPlugin): ChannelSetupAdapter {
  const setup = plugin.setup ?? derivedSetup(plugin);
  const fields = setup.fields.some((field) => field.key === 'dmPolicy')
    ? setup.fields
    : [...setup.fields, dmPolicyField(plugin)];
  return { ...setup, fields };
}

/** The secret store entry a secret field writes: the one the block names (`tokenSecret`), else its default. */
export function secretAccountOf(field: ChannelSetupField, block: Record<string, unknown>): string {
  const named = field.secret?.configKey ? block[field.secret.configKey] : undefined;
  return typeof named === 'string' && named.length > 0 ? named : (field.secret?.account ?? field.key);
}

/** Whether `field` is asked, given the answers so far (`when`). */
function applies(field: ChannelSetupField, values: Record<string, unknown>, fields: readonly ChannelSetupField[]) {
  if (!field.when) return true;
  const other = fields.find((f) => f.key === field.when!.key);
  const current = values[field.when.key] ?? other?.default;
  return current === field.when.equals;
}

function fieldError(channelId: string, field: ChannelSetupField | string, message: string): HearthError {
  const key = typeof field === 'string' ? field : field.key;
  const label = typeof field === 'string' ? key : field.label;
  return new HearthError('bad_request', `${label} (channels.${channelId} ${key}): ${message}`, {
    details: { reason: 'invalid-setup', channel: channelId, field: key },
  });
}

/** A wizard answer, checked against its field's kind; undefined = cleared (the channel uses its default). */
function coerce(channelId: string, field: ChannelSetupField, raw: unknown): Value | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  switch (field.kind) {
    case 'text':
    case 'secret': {
      if (typeof raw !== 'string') throw fieldError(channelId, field, `must be text, got ${JSON.stringify(raw)}`);
      const text = raw.trim();
      if (field.kind === 'secret' && /\s/.test(text))
        throw fieldError(
          channelId,
          field,
          'must not contain spaces or line breaks (copy the whole value, nothing else)',
        );
      return text === '' ? undefined : text;
    }
    case 'number': {
      const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw fieldError(channelId, field, `must be a number, got ${JSON.stringify(raw)}`);
      return value;
    }
    case 'boolean':
      if (typeof raw !== 'boolean')
        throw fieldError(channelId, field, `must be true or false, got ${JSON.stringify(raw)}`);
      return raw;
    case 'select': {
      const choices = (field.options ?? []).map((option) => option.value);
      if (typeof raw !== 'string' || !choices.includes(raw))
        throw fieldError(channelId, field, `must be one of ${choices.join(', ')}, got ${JSON.stringify(raw)}`);
      return raw;
    }
  }
}

/** The wizard's fields with their current values (a secret's value never: only whether it is stored). */
export async function describeSetup(
  plugin: ChannelPlugin,
  block: Record<string, unknown>,
  hasSecret: (account: string) => Promise<boolean>,
): Promise<{ steps: string[]; fields: SetupFieldState[] }> {
  const setup = setupOf(plugin);
  const fields = await Promise.all(
    setup.fields.map(async (field): Promise<SetupFieldState> => {
      if (field.kind === 'secret') {
        const account = secretAccountOf(field, block);
        return { ...field, secretAccount: account, stored: await hasSecret(account) };
      }
      const value = block[field.key];
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? { ...field, value }
        : { ...field };
    }),
  );
  return { steps: [...(setup.steps ?? [])], fields };
}

export interface SetupPlan {
  /** The whole next `channels.<id>` block (keys the wizard does not ask are kept). */
  block: Record<string, unknown>;
  /** Secret store entries to write. */
  secrets: { account: string; value: string }[];
}

/**
 * Checks the wizard's answers and turns them into the next block and the secrets to store.
 * Throws a `bad_request` naming the field (`details.field`): an unknown key, a wrong kind, a
 * required value missing, or what the plugin's own `config.validate` refuses.
 */
export async function planSetup(
  channelId: string,
  plugin: ChannelPlugin,
  current: Record<string, unknown>,
  values: Record<string, unknown>,
  hasSecret: (account: string) => Promise<boolean>,
): Promise<SetupPlan> {
  const { fields } = setupOf(plugin);
  for (const key of Object.keys(values))
    if (!fields.some((field) => field.key === key))
      throw fieldError(
        channelId,
        key,
        `is not asked by the ${plugin.meta.name} setup (it asks: ${fields.map((f) => f.key).join(', ')})`,
      );
  const answers: Record<string, Value | undefined> = {};
  for (const field of fields) if (field.key in values) answers[field.key] = coerce(channelId, field, values[field.key]);

  const block: Record<string, unknown> = { ...current };
  const seen: Record<string, unknown> = { ...current, ...answers };
  for (const field of fields) {
    if (field.kind === 'secret' || !(field.key in answers) || !applies(field, seen, fields)) continue;
    const value = answers[field.key];
    // A default the block never named stays unnamed: hearth.json holds only what differs.
    if (value === undefined || (value === field.default && !(field.key in current))) delete block[field.key];
    else block[field.key] = value;
  }
  for (const field of fields) {
    if (!field.required || field.kind === 'secret' || !applies(field, block, fields)) continue;
    if (block[field.key] === undefined) throw fieldError(channelId, field, 'is required');
  }

  const secrets: SetupPlan['secrets'] = [];
  for (const field of fields) {
    if (field.kind !== 'secret' || !applies(field, block, fields)) continue;
    const account = secretAccountOf(field, block);
    const value = answers[field.key];
    if (typeof value === 'string') secrets.push({ account, value });
    else if (field.required && !(await hasSecret(account)))
      throw fieldError(channelId, field, `is required (nothing is stored in the secret store as "${account}" yet)`);
  }

  try {
    const split = splitChannelConfig(channelId, block, plugin.security?.defaultDmPolicy ?? 'pairing');
    plugin.config.validate(split.plugin);
  } catch (error) {
    const message = (error as Error).message;
    // The plugin names the key (`channels.telegram.webhookUrl must be…`): point the wizard at it.
    const named = fields.find((field) => new RegExp(`channels\\.${channelId}\\.${field.key}\\b`).test(message));
    throw new HearthError('bad_request', message, {
      details: { reason: 'invalid-setup', channel: channelId, ...(named ? { field: named.key } : {}) },
    });
  }
  return { block, secrets };
}
