import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import type { FakeLlmServer, FakeReply } from '../../src-main/testing/fake-llm/index.js';
import { connectRaw } from '../../src-main/testing/raw-gateway-socket.js';
import type { TestHost } from '../../src-main/testing/test-host.js';
import { ChatListPage } from './pages/chat-list-page.js';
import { ControlUiPage } from './pages/control-ui-page.js';
import { type RealHostWithFakeModel, startRealHostWithFakeModel } from './real-host-with-fake-model.js';

// Issue 20 in the Control UI, on the real composed host with the fake LLM: a person creates an
// agent, switches to it with the agent switcher, starts a named chat, and watches a subagent the
// model spawns stream in a live card (its text, the tool it waits on, its status) until it ends;
// after a reload the card is rebuilt from the transcript. The subagent's command waits on an
// approval, which holds it running while the page is checked; approving it lets it finish.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

let real: RealHostWithFakeModel;
let llm: FakeLlmServer;
let host: TestHost;
test.beforeAll(async () => {
  real = await startRealHostWithFakeModel({
    homePrefix: 'hearth-e2e-agents-',
    controlUiDir: uiDir,
    secret: 'sk-e2e-agents-CCCC',
  });
  ({ llm, host } = real);
});
test.afterAll(async () => {
  await real?.close();
});

async function gatewayCall(method: string, params: unknown): Promise<unknown> {
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  try {
    const response = await socket.request(method, params, 20_000);
    if (!response.ok) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    return response.payload;
  } finally {
    socket.close();
  }
}

test('agents: create one, switch to it, a named chat, and a subagent card streams until it ends', async ({ page }) => {
  const command = 'basename /almanac/mars-has-two-moons';
  const answer = 'Mars has two moons: Phobos and Deimos.';
  const replies: FakeReply[] = [
    {
      type: 'tool_calls',
      calls: [{ name: 'sessions_spawn', input: { task: 'count the moons of Mars', label: 'moons' } }],
    },
    { type: 'tool_calls', text: 'Checking the almanac.', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: answer, chunkSize: 4 },
    { type: 'text', text: 'The subagent counted two moons.' },
  ];
  llm.script(replies);

  const ui = new ControlUiPage(page);
  const chats = new ChatListPage(page);
  await ui.open(host.url, host.token, 'chat');
  const switcher = page.getByRole('combobox', { name: 'Agent' });

  // Create an agent: the switcher shows it at once.
  await page.getByRole('button', { name: 'New agent' }).click();
  const form = page.getByRole('form', { name: 'New agent' });
  await form.getByLabel('Name').fill('Astronomer');
  await form.getByRole('button', { name: 'Create agent' }).click();
  await expect(form).toBeHidden();
  await expect(switcher.locator('option', { hasText: 'Astronomer' })).toHaveCount(1);
  const agentId = await switcher.locator('option', { hasText: 'Astronomer' }).getAttribute('value');
  expect(agentId).toBeTruthy();

  // Switch away and back with the switcher.
  await switcher.selectOption('main');
  await expect(switcher).toHaveValue('main');
  await switcher.selectOption(agentId!);
  await expect(switcher).toHaveValue(agentId!);

  // A new chat of this agent, named.
  const before = (await chats.title.textContent()) ?? '';
  await chats.newChat();
  await expect(chats.title).not.toHaveText(before);
  const fresh = (await chats.title.textContent()) ?? '';
  await chats.rename(fresh, 'Moon count');
  await expect(chats.title).toHaveText('Moon count');

  await ui.send('How many moons has Mars? Ask a subagent.');
  const card = ui.transcript.getByRole('region', { name: 'Subagent moons' });
  await expect(card).toBeVisible({ timeout: 20_000 });
  // Live: running, what it said so far and the tool it waits on.
  await expect(card.getByText('Running')).toBeVisible();
  await expect(card.getByText('count the moons of Mars')).toBeVisible();
  await expect(card.getByText('Checking the almanac.')).toBeVisible({ timeout: 20_000 });
  await expect(card.getByRole('list', { name: 'Tools it called' }).getByText('exec')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Abort' })).toBeVisible();
  await ui.screenshot('host-subagent-running');

  // Its command waits on an approval: allowed, the subagent finishes.
  let approvalId = '';
  await expect
    .poll(async () => {
      const pending = (await gatewayCall('exec.approval.list', {})) as { id: string; command?: string }[];
      approvalId = pending.find((entry) => entry.command === command)?.id ?? '';
      return approvalId;
    })
    .not.toBe('');
  await gatewayCall('exec.approval.resolve', { id: approvalId, decision: 'allow-once' });
  await expect(card.getByText('Done')).toBeVisible({ timeout: 20_000 });
  await expect(card.getByText(answer)).toBeVisible();
  await expect(card.getByText(/1 tool call\(s\) · \d+ tokens/)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Abort' })).toHaveCount(0);
  await expect(ui.transcript.getByText('The subagent counted two moons.')).toBeVisible({ timeout: 20_000 });
  await ui.screenshot('host-subagent-done');

  // It ran as a subagent of the new agent, in its own session.
  const listed = (await gatewayCall('subagents.list', {})) as { subagents: { sessionKey: string; label?: string }[] };
  const child = listed.subagents.find((view) => view.label === 'moons');
  expect(child?.sessionKey).toMatch(new RegExp(`^agent:${agentId}:subagent:`));

  // A reload rebuilds the card from the chat's transcript.
  await page.reload();
  await expect(ui.connectionBadge.filter({ hasText: 'Connected' }).first()).toBeVisible();
  await switcher.selectOption(agentId!);
  await chats.chat('Moon count').click();
  const again = ui.transcript.getByRole('region', { name: 'Subagent moons' });
  await expect(again.getByText('Done')).toBeVisible({ timeout: 20_000 });
  await again.getByRole('button', { name: /Subagent “moons”/ }).click();
  await expect(again.getByText(answer)).toBeVisible();
  // Its own chat is one click away.
  await again.getByRole('button', { name: 'Open its chat' }).click();
  await expect(ui.transcript.getByText(answer)).toBeVisible();
  await expect(ui.transcript.getByText(/count the moons of Mars/)).toBeVisible();
});
