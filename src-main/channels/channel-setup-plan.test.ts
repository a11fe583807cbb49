import { describe, expect, it } from 'vitest';
import { discordChannel } from '../../extensions/discord/discord-channel.js';
import { slackChannel } from '../../extensions/slack/slack-channel.js';
import { telegramChannel } from '../../extensions/telegram/telegram-channel.js';
import { webhookChannel } from '../../extensions/webhook/webhook-channel.js';
import type { ChannelPlugin } from '../plugins/sdk/index.js';
import { describeSetup, planSetup, setupOf } from './channel-setup.js';

// How a wizard's answers become a channels.<id> block and secret store entries, for the bundled
// plugins' own setup adapters and for a plugin that has none (the wizard derived from its schema).

const nothingStored = async () => false;
const plugins = [telegramChannel, discordChannel, slackChannel, webhookChannel] as unknown as ChannelPlugin[];

/** A third-party channel with a schema and a secret but no setup adapter. */
const schemaOnly: ChannelPlugin = {
  id: 'pager',
  meta: { name: 'Pager' },
  capabilities: {
    editMessages: false,
    threads: false,
    reactions: false,
    buttons: false,
    groups: false,
    media: [],
    maxMessageLength: 160,
    markdown: 'plain',
  },
  config: {
    schema: {
      type: 'object',
      required: ['number'],
      properties: {
        number: { type: 'string', title: 'Pager number' },
        tone: { type: 'string', enum: ['beep', 'chirp'], default: 'beep', title: 'Tone' },
        retries: { type: 'integer', default: 2, title: 'Retries' },
        loud: { type: 'boolean', default: false, title: 'Loud' },
        keySecret: { type: 'string', default: 'channels.pager.key', title: 'Secret store entry' },
      },
    },
    validate: (raw) => {
      if (typeof raw.retries === 'number' && raw.retries > 5)
        throw new Error('channels.pager.retries must be at most 5');
      return raw;
    },
    secrets: [{ account: 'channels.pager.key', description: 'The pager API key' }],
  },
  start: async () => ({ dispose: async () => {} }),
};

async function refusal(run: Promise<unknown>) {
  const error = (await run.then(
    () => undefined,
    (e: unknown) => e,
  )) as { message: string; details?: { field?: string } } | undefined;
  if (!error) throw new Error('expected a refusal');
  return { message: error.message, field: error.details?.field };
}

describe('setup wizards', () => {
  it('every bundled channel describes a wizard whose secret fields go to the secret store entries it reads', async () => {
    for (const plugin of plugins) {
      const setup = setupOf(plugin);
      expect(setup.steps?.length, plugin.id).toBeGreaterThan(0);
      const secrets = setup.fields.filter((field) => field.kind === 'secret');
      expect(secrets.length, plugin.id).toBeGreaterThan(0);
      for (const field of secrets)
        expect(
          plugin.config.secrets?.map((s) => s.account),
          plugin.id,
        ).toContain(field.secret?.account);
      // Each non-secret field is a key the plugin's validate accepts (or the host's dmPolicy).
      const schemaKeys = Object.keys((plugin.config.schema as { properties: object }).properties);
      for (const field of setup.fields.filter((f) => f.kind !== 'secret'))
        expect([...schemaKeys, 'dmPolicy'], `${plugin.id}.${field.key}`).toContain(field.key);
    }
  });

  it('Slack asks the app token in Socket Mode and the signing secret for the Events API, never both', async () => {
    const socket = await planSetup(
      'slack',
      slackChannel as unknown as ChannelPlugin,
      {},
      { token: 'xoxb-1', appToken: 'xapp-1', signing: 'ignored' },
      nothingStored,
    );
    expect(socket.secrets).toEqual([
      { account: 'channels.slack.token', value: 'xoxb-1' },
      { account: 'channels.slack.appToken', value: 'xapp-1' },
    ]);
    const events = await refusal(
      planSetup(
        'slack',
        slackChannel as unknown as ChannelPlugin,
        {},
        { token: 'xoxb-1', mode: 'events' },
        nothingStored,
      ),
    );
    expect(events.field).toBe('signing');
    expect(events.message).toContain('channels.slack.signingSecret');
  });

  it('a secret goes to the entry the block names (tokenSecret), and a stored one is not asked again', async () => {
    const plan = await planSetup(
      'telegram',
      telegramChannel as unknown as ChannelPlugin,
      { tokenSecret: 'bots.work-telegram' },
      { token: '1:abc' },
      nothingStored,
    );
    expect(plan.secrets).toEqual([{ account: 'bots.work-telegram', value: '1:abc' }]);
    const described = await describeSetup(
      telegramChannel as unknown as ChannelPlugin,
      { tokenSecret: 'bots.work-telegram' },
      async (account) => account === 'bots.work-telegram',
    );
    expect(described.fields.find((f) => f.key === 'token')).toMatchObject({
      secretAccount: 'bots.work-telegram',
      stored: true,
    });
    const again = await planSetup(
      'telegram',
      telegramChannel as unknown as ChannelPlugin,
      { tokenSecret: 'bots.work-telegram' },
      { mode: 'polling' },
      async () => true,
    );
    expect(again.secrets).toEqual([]);
  });

  it('clearing a field removes its key, a default is not written, a hidden field is left alone', async () => {
    const plan = await planSetup(
      'telegram',
      telegramChannel as unknown as ChannelPlugin,
      { apiBaseUrl: 'http://127.0.0.1:1', webhookUrl: 'https://old.example/hook', allowFrom: ['42'] },
      { apiBaseUrl: '', mode: 'polling', editIntervalMs: 1000, webhookUrl: 'https://new.example/hook' },
      async () => true,
    );
    expect(plan.block).toEqual({ webhookUrl: 'https://old.example/hook', allowFrom: ['42'] });
  });

  it('a plugin without a setup adapter gets a wizard from its schema and secrets', async () => {
    const setup = setupOf(schemaOnly);
    expect(setup.fields.map((f) => [f.key, f.kind])).toEqual([
      ['key', 'secret'],
      ['number', 'text'],
      ['tone', 'select'],
      ['retries', 'number'],
      ['loud', 'boolean'],
      ['dmPolicy', 'select'],
    ]);
    expect(setup.fields[0]).toMatchObject({ label: 'The pager API key', secret: { configKey: 'keySecret' } });
    expect((await refusal(planSetup('pager', schemaOnly, {}, { key: 'k' }, nothingStored))).field).toBe('number');
    const tooMany = await refusal(planSetup('pager', schemaOnly, {}, { number: '555', retries: 9 }, nothingStored));
    expect(tooMany).toEqual({ message: 'channels.pager.retries must be at most 5', field: 'retries' });
    const loud = await refusal(planSetup('pager', schemaOnly, {}, { number: '555', loud: 'yes' }, nothingStored));
    expect(loud.message).toContain('must be true or false');
    const plan = await planSetup('pager', schemaOnly, {}, { number: '555', tone: 'chirp', key: 'k' }, nothingStored);
    expect(plan).toEqual({
      block: { number: '555', tone: 'chirp' },
      secrets: [{ account: 'channels.pager.key', value: 'k' }],
    });
  });
});
