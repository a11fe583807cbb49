import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type FakeBedrockServer, startFakeBedrockServer } from '../../src-main/testing/fake-bedrock-server.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { shootEveryVariant } from './docs-screenshots.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 22's "every provider kind Hearth supports" in onboarding, on the real composed host:
// Azure OpenAI (a loopback Azure that wants its api-key header, a dated api-version and a real
// deployment), Amazon Bedrock (a loopback Bedrock that checks SigV4) and OpenAI's Responses API.
// A bad field is named and marked; Bedrock is saved and answers the first message.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
const docsShots = process.env.HEARTH_DOCS_SCREENSHOTS === '1';
const docsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

const azureKey = 'azure-e2e-key-3c9d';
const pair = { accessKeyId: 'AKIAE2EONBOARDING001', secretAccessKey: 'e2e/bedrock+secret/key00000000000000000' };
let azure: FakeLlmServer;
let bedrock: FakeBedrockServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;

test.beforeAll(async () => {
  azure = await startFakeLlmServer({ acceptKeys: [azureKey], azureDeployments: ['chat-prod'] });
  bedrock = await startFakeBedrockServer({ region: 'us-east-1', credentials: [pair] });
  temp = await createTempHome('hearth-e2e-onboarding-kinds-');
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
  await azure?.close();
  await bedrock?.close();
  await temp?.cleanup();
});

const hearthJsonText = () => readFile(join(temp.home, 'hearth.json'), 'utf8');

async function shoot(page: Page, ui: ControlUiPage, name: string, focus: Locator, language: 'en' | 'zh') {
  if (!docsShots) return ui.screenshot(`onboarding-${name}-${language}`);
  await shootEveryVariant(page, {
    path: (device, scheme) => `${docsDir}onboarding-${name}-${device}-${scheme}-${language}.png`,
    arrange: () => focus.scrollIntoViewIfNeeded(),
  });
}

test('Azure OpenAI: a bad deployment name is named and marked; the right one is tested on its deployment', async ({
  page,
}) => {
  const before = await hearthJsonText();
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await page.getByLabel('Azure OpenAI').check();
  await expect(page.getByLabel('API version')).toHaveValue('2024-10-21');
  await page.getByLabel('Base URL (instead of a resource name)').fill(azure.baseUrlFor('azure'));
  await page.getByLabel('API key', { exact: true }).fill(azureKey);
  await page.getByLabel('Deployment').fill('chat prod');
  await page.getByRole('button', { name: 'Test connection' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Test failed' });
  await expect(refusal).toContainText('deployment "chat prod" may hold only letters, digits');
  await expect(page.getByLabel('Deployment')).toHaveAttribute('aria-invalid', 'true');
  await ui.screenshot('onboarding-azure-refused-en');

  // A deployment Azure does not have: Azure's own words.
  await page.getByLabel('Deployment').fill('chat-typo');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(refusal).toContainText('The API deployment for this resource does not exist');

  await page.getByLabel('Deployment').fill('chat-prod');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected: 1 models available.' })).toBeVisible();
  await expect(page.getByLabel('Primary model').locator('option')).toHaveText(['chat-prod']);
  expect(azure.requests.at(-1)).toMatchObject({
    path: '/azure/openai/deployments/chat-prod/chat/completions',
    keyTail: azureKey.slice(-4),
  });
  await shoot(page, ui, 'azure', page.getByRole('button', { name: 'Save and start' }), 'en');
  expect(await hearthJsonText()).toBe(before);
});

test('OpenAI (Responses API) is offered with the OpenAI key field', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await page.getByLabel('OpenAI (Responses API)').check();
  const key = page.getByLabel('API key', { exact: true });
  await expect(key).toBeVisible();
  await expect(page.getByRole('button', { name: 'Test connection' })).toBeDisabled();
  await key.fill('sk-responses');
  await expect(page.getByRole('button', { name: 'Test connection' })).toBeEnabled();
  await shoot(page, ui, 'responses', key, 'en');
});

test('the Azure and Bedrock forms in Chinese', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  try {
    const ui = new ControlUiPage(page);
    await page.goto(`${host.url}/?view=chat#token=${encodeURIComponent(host.token)}`);
    await expect(page.getByRole('heading', { name: '欢迎使用 Hearth' })).toBeVisible();
    await page.getByLabel('Azure OpenAI').check();
    await page.getByLabel('基础 URL（可代替资源名称）').fill(azure.baseUrlFor('azure'));
    await page.getByLabel('部署名称').fill('chat-prod');
    await page.getByLabel('API 密钥', { exact: true }).fill(azureKey);
    await page.getByRole('button', { name: '测试连接' }).click();
    await expect(page.getByRole('status').filter({ hasText: '已连接：有 1 个模型可用。' })).toBeVisible();
    await shoot(page, ui, 'azure', page.getByRole('button', { name: '保存并开始' }), 'zh');

    await page.getByLabel('Amazon Bedrock').check();
    await page.getByLabel('AWS 区域').fill('us-east-1');
    await page.getByLabel('访问密钥 ID').fill(pair.accessKeyId);
    await page.getByLabel('秘密访问密钥').fill(pair.secretAccessKey);
    await page.getByLabel('端点 URL（可选）').fill(bedrock.url);
    await page.getByRole('button', { name: '测试连接' }).click();
    await expect(page.getByRole('status').filter({ hasText: '已连接：有 3 个模型可用。' })).toBeVisible();
    await shoot(page, ui, 'bedrock', page.getByRole('button', { name: '保存并开始' }), 'zh');
    await page.getByLabel('OpenAI（Responses API）').check();
    await shoot(page, ui, 'responses', page.getByLabel('API 密钥', { exact: true }), 'zh');
  } finally {
    await context.close();
  }
});

test('Amazon Bedrock: a bad region is named; tested with SigV4, saved (keys never in hearth.json), answers', async ({
  page,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await page.getByLabel('Amazon Bedrock').check();
  await expect(page.getByLabel('API key', { exact: true })).toHaveCount(0);
  await page.getByLabel('AWS region').fill('Virginia');
  await page.getByLabel('Access key ID').fill(pair.accessKeyId);
  await page.getByLabel('Secret access key').fill(pair.secretAccessKey);
  await page.getByLabel('Endpoint URL (optional)').fill(bedrock.url);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Test failed' })).toContainText(
    'region "Virginia" is not an AWS region like us-east-1',
  );
  await expect(page.getByLabel('AWS region')).toHaveAttribute('aria-invalid', 'true');

  // The wrong secret: Bedrock's own refusal of the signature.
  await page.getByLabel('AWS region').fill('us-east-1');
  await page.getByLabel('Secret access key').fill('not/the/secret');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Test failed' })).toContainText(
    'signature we calculated does not match',
  );

  await page.getByLabel('Secret access key').fill(pair.secretAccessKey);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected: 3 models available.' })).toBeVisible();
  await page.getByLabel('Primary model').selectOption('bedrock/amazon.nova-lite-v1:0');
  await shoot(page, ui, 'bedrock', page.getByRole('button', { name: 'Save and start' }), 'en');

  await page.getByRole('button', { name: 'Save and start' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'New chats answer with bedrock/amazon.nova-lite-v1:0' }),
  ).toBeVisible();
  const text = await hearthJsonText();
  expect(text).not.toContain(pair.secretAccessKey);
  expect(text).not.toContain(pair.accessKeyId);
  expect(JSON.parse(text).providers.bedrock).toEqual({ kind: 'bedrock', baseURL: bedrock.url, region: 'us-east-1' });

  await page.getByRole('button', { name: 'Start chatting' }).click();
  await ui.send('Hello from onboarding');
  await expect(ui.transcript.getByText(/Bedrock heard: .*Hello from onboarding/)).toBeVisible({ timeout: 20_000 });
  expect(bedrock.requests.at(-1)).toMatchObject({
    path: '/model/amazon.nova-lite-v1%3A0/converse-stream',
    signed: true,
    accessKeyId: pair.accessKeyId,
  });
});
