import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type FakeBedrockServer, startFakeBedrockServer } from '../../src-main/testing/fake-bedrock-server.js';
import { connectRaw } from '../../src-main/testing/raw-gateway-socket.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { shootEveryVariant } from './docs-screenshots.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 22's Auth profiles view on the real composed host: a Bedrock profile is asked for by its
// region and IAM key pair, a bad region is refused in the form (naming the field, nothing sent),
// a good one is saved (region in hearth.json, the pair in the secret store only), "Replace key"
// rewrites the pair under the same id, and the form speaks Chinese. The profile's endpoint is a
// loopback Bedrock that checks SigV4, so "Check now" proves which key pair the host now holds.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
const docsShots = process.env.HEARTH_DOCS_SCREENSHOTS === '1';
const docsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

const firstPair = { accessKeyId: 'AKIAE2EAUTHVIEW00001', secretAccessKey: 'e2e/auth+view/first0000000000000000000' };
const nextPair = { accessKeyId: 'AKIAE2EAUTHVIEW00002', secretAccessKey: 'e2e/auth+view/second000000000000000000' };
const profileName = 'AWS work';
const profileId = 'bedrock:aws-work';
let bedrock: FakeBedrockServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;

test.beforeAll(async () => {
  bedrock = await startFakeBedrockServer({ region: 'us-east-1', credentials: [firstPair, nextPair] });
  temp = await createTempHome('hearth-e2e-auth-credentials-');
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ memory: { recall: { enabled: false } } }));
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: {
      ...process.env,
      HEARTH_SECRET_STORE: 'file',
      OLLAMA_HOST: '127.0.0.1:9',
      HEARTH_LMSTUDIO_URL: 'http://127.0.0.1:9/v1',
    },
  });
});
test.afterAll(async () => {
  await host?.close();
  await bedrock?.close();
  await temp?.cleanup();
});

const hearthJsonText = () => readFile(join(temp.home, 'hearth.json'), 'utf8');

/** Every file under HEARTH_HOME that holds `text` in the clear. */
async function filesHolding(text: string): Promise<string[]> {
  const entries = await readdir(temp.home, { recursive: true, withFileTypes: true });
  const holding: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(text)) holding.push(path);
  }
  return holding;
}

/** The host's profiles as the gateway lists them, over a socket of our own. */
async function listedProfiles() {
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  try {
    const answer = await socket.request('auth.profiles.list', {});
    expect(answer.ok, JSON.stringify(answer.error)).toBe(true);
    return (answer.payload as { profiles: { id: string; provider: string; label?: string }[] }).profiles;
  } finally {
    socket.close();
  }
}

/** The gateway methods the page requested over its WebSocket (from the frames it sent). */
function recordRequests(page: Page): string[] {
  const methods: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      try {
        const frame = JSON.parse(payload) as { type?: string; method?: string };
        if (frame.type === 'req' && frame.method) methods.push(frame.method);
      } catch {
        // Not a gateway frame.
      }
    });
  });
  return methods;
}

async function shoot(page: Page, ui: ControlUiPage, focus: Locator, language: 'en' | 'zh') {
  if (!docsShots) return ui.screenshot(`auth-bedrock-${language}`);
  await shootEveryVariant(page, {
    path: (device, scheme) => `${docsDir}auth-bedrock-${device}-${scheme}-${language}.png`,
    // The view's top first: a desktop shot taken after a phone one would keep the phone's scroll.
    arrange: async () => {
      await page.getByRole('main').evaluate((main) => {
        main.scrollTop = 0;
        window.scrollTo(0, 0);
      });
      await focus.scrollIntoViewIfNeeded();
    },
  });
}

// First, while no profile exists, so both languages' screenshots show the same screen.
test('the Bedrock form in Chinese: Chinese labels, a bad region refused in Chinese', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  try {
    const ui = new ControlUiPage(page);
    const requested = recordRequests(page);
    await page.goto(`${host.url}/?view=auth#token=${encodeURIComponent(host.token)}`);
    await expect(page.getByRole('heading', { name: '认证配置', exact: true })).toBeVisible();
    await expect(page.getByText('还没有认证配置。')).toBeVisible();
    const form = page.getByRole('form', { name: '添加配置' });
    await form.getByLabel('提供方').selectOption('bedrock');
    await form.getByLabel('名称').fill(profileName);
    await form.getByLabel('AWS 区域').fill('useast1');
    await form.getByLabel('访问密钥 ID').fill(firstPair.accessKeyId);
    await form.getByLabel('秘密访问密钥').fill(firstPair.secretAccessKey);
    await expect(form.getByLabel('会话令牌（仅临时密钥需要）')).toBeVisible();
    await form.getByLabel('端点 URL（可选）').fill(bedrock.url);
    await form.getByRole('button', { name: '添加', exact: true }).click();
    await expect(form.getByRole('alert')).toHaveText('AWS 区域：“useast1”不是 us-east-1 这样的 AWS 区域。');
    await expect(form.getByLabel('AWS 区域')).toHaveAttribute('aria-invalid', 'true');
    expect(requested.filter((m) => m === 'config.patch' || m === 'auth.profiles.set')).toEqual([]);

    // The form filled, before saving.
    await form.getByLabel('AWS 区域').fill('us-east-1');
    await expect(form.getByRole('alert')).toHaveCount(0);
    await shoot(page, ui, form.getByRole('button', { name: '添加', exact: true }), 'zh');
    expect(await listedProfiles()).toEqual([]);
  } finally {
    await context.close();
  }
});

test('Bedrock: a bad region is named and nothing is sent; a good one saves the region, never the secret', async ({
  page,
}) => {
  const before = await hearthJsonText();
  const ui = new ControlUiPage(page);
  const requested = recordRequests(page);
  await ui.open(host.url, host.token, 'auth');
  await expect(ui.heading('Auth profiles')).toBeVisible();
  await expect(page.getByText('No auth profiles yet.')).toBeVisible();
  const form = page.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Provider').selectOption('bedrock');
  await expect(form.getByLabel('API key', { exact: true })).toHaveCount(0);
  await form.getByLabel('Name').fill(profileName);
  await form.getByLabel('AWS region').fill('useast1');
  await form.getByLabel('Access key ID').fill(firstPair.accessKeyId);
  await form.getByLabel('Secret access key').fill(firstPair.secretAccessKey);
  await form.getByLabel('Endpoint URL (optional)').fill(bedrock.url);
  const add = form.getByRole('button', { name: 'Add', exact: true });
  await add.click();
  await expect(form.getByRole('alert')).toHaveText('AWS region: “useast1” is not an AWS region like us-east-1.');
  await expect(form.getByLabel('AWS region')).toHaveAttribute('aria-invalid', 'true');
  expect(requested.filter((m) => m === 'config.patch' || m === 'auth.profiles.set')).toEqual([]);
  expect(await hearthJsonText()).toBe(before);

  await form.getByLabel('AWS region').fill('us-east-1');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(form.getByLabel('AWS region')).not.toHaveAttribute('aria-invalid', 'true');
  await shoot(page, ui, add, 'en');

  await add.click();
  const row = ui.profile(profileName);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('bedrock');
  // Saved: the form is empty again, ready for another profile.
  await expect(form.getByLabel('Name')).toHaveValue('');
  expect(requested.filter((m) => m === 'config.patch' || m === 'auth.profiles.set')).toEqual([
    'config.patch',
    'auth.profiles.set',
  ]);

  const listed = await listedProfiles();
  expect(listed).toEqual([expect.objectContaining({ id: profileId, provider: 'bedrock', label: profileName })]);
  expect(JSON.stringify(listed)).not.toContain(firstPair.secretAccessKey);
  const text = await hearthJsonText();
  expect(JSON.parse(text).providers.bedrock).toEqual({ kind: 'bedrock', region: 'us-east-1', baseURL: bedrock.url });
  expect(text).not.toContain(firstPair.secretAccessKey);
  expect(await filesHolding(firstPair.secretAccessKey)).toEqual([]);

  // The host holds the pair typed: a check of the key is signed with it and works.
  await row.getByRole('button', { name: 'Check now' }).click();
  await expect(row.getByTestId('auth-probe')).toContainText('works, 3 models listed');
  expect(bedrock.requests.at(-1)).toMatchObject({
    path: '/foundation-models',
    signed: true,
    accessKeyId: firstPair.accessKeyId,
  });
});

test('Replace key rewrites the key pair under the same id', async ({ page }) => {
  const ui = new ControlUiPage(page);
  const requested = recordRequests(page);
  await ui.open(host.url, host.token, 'auth');
  const row = ui.profile(profileName);
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Replace key' }).click();
  const form = page.getByRole('form', { name: `Replace the key of ${profileName}` });
  await expect(form).toBeVisible();
  await expect(form.getByLabel('Provider')).toBeDisabled();
  await expect(form.getByLabel('Name')).toHaveValue(profileName);
  // The provider's settings come from hearth.json; the secret is never shown again.
  await expect(form.getByLabel('AWS region')).toHaveValue('us-east-1');
  await expect(form.getByLabel('Endpoint URL (optional)')).toHaveValue(bedrock.url);
  await expect(form.getByLabel('Secret access key')).toHaveValue('');

  await form.getByLabel('Access key ID').fill(nextPair.accessKeyId);
  await form.getByLabel('Secret access key').fill(nextPair.secretAccessKey);
  await form.getByRole('button', { name: 'Replace key' }).click();
  await expect(page.getByRole('form', { name: 'Add a profile' })).toBeVisible();
  expect(requested.filter((m) => m === 'auth.profiles.set')).toEqual(['auth.profiles.set']);

  const listed = await listedProfiles();
  expect(listed.map((p) => p.id)).toEqual([profileId]);
  await expect(ui.profile(profileName)).toHaveCount(1);
  const text = await hearthJsonText();
  expect(JSON.parse(text).providers.bedrock).toEqual({ kind: 'bedrock', region: 'us-east-1', baseURL: bedrock.url });
  expect(await filesHolding(nextPair.secretAccessKey)).toEqual([]);

  // The same id now signs with the new pair.
  const probesBefore = bedrock.requests.length;
  await row.getByRole('button', { name: 'Check now' }).click();
  await expect
    .poll(() => bedrock.requests.slice(probesBefore).map((r) => r.accessKeyId))
    .toContain(nextPair.accessKeyId);
  await expect(row.getByTestId('auth-probe')).toContainText('works, 3 models listed');
  expect(bedrock.requests.slice(probesBefore).every((r) => r.signed && r.accessKeyId === nextPair.accessKeyId)).toBe(
    true,
  );
});
