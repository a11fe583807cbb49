import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { type FakeSlackBotMessage, type FakeSlackServer, startFakeSlackServer } from '../testing/fake-slack-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Exec approvals in Slack: a command the agent wants to run, for a conversation that came from
// Slack, is offered there as a message with Block Kit buttons (Allow once / Always / Deny). A press
// comes back as a block_actions payload (a Socket Mode `interactive` envelope, or a signed form
// POST in Events API mode); only the owner's counts. Anyone else is told so in a message only they
// see, and nothing changes. The prompt is then updated to say how it ended, its buttons gone.

const OWNER = 'UOWNER03';
const OWNER_DM = 'DOWNER03';
const FRIEND = 'UFRIEND3';

async function startSlackProduct(slack: FakeSlackServer, mode: 'socket' | 'events'): Promise<ProductFixture> {
  const product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false }, identityLinks: { owner: [`slack:${OWNER}`] } },
      channels: { slack: { mode, apiBaseUrl: slack.apiUrl, editIntervalMs: 100, allowFrom: [OWNER, FRIEND] } },
    },
    before: async (home) => {
      const { store } = await openSecretStore({
        paths: createHearthPaths(home),
        log: silentLogger,
        env: { HEARTH_SECRET_STORE: 'file' },
      });
      await store.set('channels.slack.token', slack.botToken);
      await store.set('channels.slack.appToken', slack.appToken);
      await store.set('channels.slack.signingSecret', slack.signingSecret);
    },
  });
  for (;;) {
    const seen = product.socket.frames.length;
    const listed = await product.socket.request('channels.list', {});
    const status = (listed.payload as { channels: { id: string; state: string }[] }).channels.find(
      (channel) => channel.id === 'slack',
    );
    if (status?.state === 'connected') return product;
    await product.socket.next(
      (frame) => frame.event === 'channels.changed' && product.socket.frames.indexOf(frame) >= seen,
      20_000,
    );
  }
}

const buttonsOf = (message: FakeSlackBotMessage) =>
  message.blocks
    .filter((block) => block.type === 'actions')
    .flatMap((block) => block.elements as { text: { text: string }; action_id: string; style?: string }[]);

/** The agent asks to run `command` in the owner's DM; resolves with (a copy of) the prompt it posted there. */
async function askToRun(
  slack: FakeSlackServer,
  product: ProductFixture,
  command: string,
  send: (text: string) => Promise<unknown> | unknown,
) {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: `Done with ${command.split(' ')[1]!.slice(1)}` },
  ]);
  const already = slack.botMessages(OWNER_DM).length;
  await send(`please run ${command}`);
  const prompt = await slack.waitForBotMessage(
    OWNER_DM,
    (m) => slack.botMessages(OWNER_DM).indexOf(m) >= already && buttonsOf(m).length > 0 && m.text.includes(command),
  );
  return { ...prompt, blocks: structuredClone(prompt.blocks) };
}

describe('approval buttons in Slack (Socket Mode)', () => {
  let slack: FakeSlackServer;
  let product: ProductFixture;
  beforeAll(async () => {
    slack = await startFakeSlackServer();
    product = await startSlackProduct(slack, 'socket');
  }, 60_000);
  afterAll(async () => {
    await product?.close();
    await slack?.close();
  });

  const ask = (command: string) =>
    askToRun(slack, product, command, (text) => slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text }));

  /** Presses `label` as `user` (on the prompt as they saw it); resolves with the notice only they were shown. */
  async function press(prompt: FakeSlackBotMessage, user: string, label: string) {
    const actionId = buttonsOf(prompt).find((b) => b.text.text === label)!.action_id;
    const before = slack.ephemerals.length;
    const envelopeId = slack.pressButton({ channel: prompt.channel, ts: prompt.ts, user: { id: user }, actionId });
    await slack.waitForEnvelopeAck(envelopeId);
    const notice = await slack.waitForEphemeral(user, (m) => slack.ephemerals.indexOf(m) >= before);
    expect(notice.channel).toBe(OWNER_DM);
    return notice.text;
  }

  it('offers Allow once / Always / Deny; a non-owner press is refused, the owner press runs it', async () => {
    const prompt = await ask('wc -c HEARTBEAT.md');
    // The host chooses the answers (more may be offered); allowing is primary, denying danger.
    expect(buttonsOf(prompt).map((b) => [b.text.text, b.style])).toEqual(
      expect.arrayContaining([
        ['Allow once', 'primary'],
        ['Always: exactly this', 'primary'],
        ['Always: in this folder', 'primary'],
        ['Deny', 'danger'],
      ]),
    );
    expect(prompt.text).toMatch(/^Approval needed \([A-Z2-9]{6}\)/);

    expect(await press(prompt, FRIEND, 'Allow once')).toBe('Only the owner can answer this approval.');
    const listed = await product.socket.request('exec.approval.list', {});
    expect(JSON.stringify(listed.payload)).toContain('wc -c HEARTBEAT.md');

    expect(await press(prompt, OWNER, 'Allow once')).toBe('✅ Allowed once');
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text.includes('Done with c'));
    const settled = await slack.waitForBotMessage(
      OWNER_DM,
      (m) => m.ts === prompt.ts && buttonsOf(m).length === 0 && m.text.includes('✅'),
    );
    expect(settled.text).toContain(`✅ Allowed once (by slack:${OWNER})`);
    expect(JSON.stringify(settled.blocks)).toContain(`✅ Allowed once (by slack:${OWNER})`);
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toMatch(/HEARTBEAT\.md/);
  });

  it('first answer wins: answered in the app, the Slack prompt says so and a late press is told', async () => {
    const mark = product.socket.frames.length;
    const prompt = await ask('wc -l HEARTBEAT.md');
    const requested = await product.socket.next(
      (frame) => frame.event === 'exec.approval.requested' && product.socket.frames.indexOf(frame) >= mark,
    );
    const { id } = requested.payload as { id: string };
    await product.socket.request('exec.approval.resolve', { id, decision: 'deny' });
    const settled = await slack.waitForBotMessage(
      OWNER_DM,
      (m) => m.ts === prompt.ts && buttonsOf(m).length === 0 && m.text.includes('Denied'),
    );
    expect(settled.text).toMatch(/❌ Denied \(by operator:/);
    // A press that raced the update (from the view before it) is told.
    expect(await press(prompt, OWNER, 'Always: in this folder')).toBe('This approval is no longer waiting.');
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text.includes('Done with l'));
  });
});

describe('approval buttons in Slack (Events API)', () => {
  let slack: FakeSlackServer;
  let product: ProductFixture;
  let requestUrl: string;
  beforeAll(async () => {
    slack = await startFakeSlackServer();
    product = await startSlackProduct(slack, 'events');
    requestUrl = `${product.host.url}/channels/slack/webhook`;
  }, 60_000);
  afterAll(async () => {
    await product?.close();
    await slack?.close();
  });

  it('takes a signed block_actions post from the owner, and refuses an unsigned one', async () => {
    const prompt = await askToRun(slack, product, 'wc -c HEARTBEAT.md', async (text) => {
      const event = slack.eventCallback({ channel: OWNER_DM, user: OWNER, text });
      expect((await slack.postToRequestUrl(requestUrl, event.body)).status).toBe(200);
    });
    const form = { contentType: 'application/x-www-form-urlencoded' };
    const pressed = slack.interactionRequest({
      channel: OWNER_DM,
      ts: prompt.ts,
      user: { id: OWNER },
      label: 'Allow once',
    });

    // Not signed by Slack: refused, and the approval keeps waiting.
    const forged = await slack.postToRequestUrl(requestUrl, pressed, { ...form, signature: 'v0=deadbeef' });
    expect(forged.status).toBe(401);
    const listed = await product.socket.request('exec.approval.list', {});
    expect(JSON.stringify(listed.payload)).toContain('wc -c HEARTBEAT.md');

    expect((await slack.postToRequestUrl(requestUrl, pressed, form)).status).toBe(200);
    expect((await slack.waitForEphemeral(OWNER, () => true)).text).toBe('✅ Allowed once');
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text.includes('Done with c'));
    const settled = await slack.waitForBotMessage(OWNER_DM, (m) => m.ts === prompt.ts && buttonsOf(m).length === 0);
    expect(settled.text).toContain('✅ Allowed once');
  });
});
