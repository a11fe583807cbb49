import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { type FakeOAuthServer, startFakeOAuthServer } from '../../src-main/testing/fake-oauth-server.js';
import { fixtureMcpServerCommand } from '../../src-main/testing/mcp-fixture-server.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../../src-main/testing/mcp-oauth-protected-server.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 15 in the Control UI, on the real composed host: a person pastes the `mcpServers` block
// Claude Desktop would hold for the SDK-built fixture server (a real stdio MCP server), tests it
// (the host starts it once and lists its tools), adds it, and sees it in the list; hearth.json holds it.
// Then a remote server behind OAuth (the fake authorization server in front of the fixture over
// Streamable HTTP): added by URL, it needs authorizing; Authorize opens the authorization page, whose
// redirect comes back to the gateway, and the card turns connected.
// HEARTH_E2E_UI_DIR points at another build of the renderer (default: the one `npm run build` makes).
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
let oauth: FakeOAuthServer;
let remote: ProtectedMcpServer;
test.beforeAll(async () => {
  oauth = await startFakeOAuthServer({ accessTokenSeconds: 3600 });
  remote = await startProtectedMcpServer(oauth);
  temp = await createTempHome('hearth-e2e-mcp-');
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ memory: { recall: { enabled: false } } }));
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
  });
});
test.afterAll(async () => {
  await host?.close();
  await remote?.close();
  await oauth?.close();
  await temp?.cleanup();
});

test('mcp: paste a Claude Desktop mcpServers block, test it (its tools listed), add it', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token);
  await page.getByRole('navigation', { name: 'Main' }).getByTestId('nav-mcp').click();
  await expect(page.getByText('No MCP servers are configured yet: add one below.')).toBeVisible();

  const add = page.getByRole('region', { name: 'Add server' });
  const pasted = JSON.stringify(
    { mcpServers: { fixture: { ...fixtureMcpServerCommand(), autoApprove: ['echo'] } } },
    null,
    2,
  );
  await add.getByLabel('JSON', { exact: true }).fill('{ "mcpServers": { "fixture": ');
  await add.getByRole('button', { name: 'Test connection' }).click();
  await expect(add.getByRole('alert')).toContainText('Not valid JSON');

  await add.getByLabel('JSON', { exact: true }).fill(pasted);
  await add.getByRole('button', { name: 'Test connection' }).click();
  const entry = add.getByRole('listitem', { name: 'Server fixture' });
  await expect(entry.getByTestId('mcp-test-result')).toHaveText(/^Connected: \d+ tools\.$/, { timeout: 45_000 });
  await expect(add.getByTestId('mcp-import-note')).toHaveText('server "fixture": "autoApprove" is not used by Hearth');
  const echo = entry.getByTestId('mcp-tool').filter({ hasText: 'Echo the text back' });
  await expect(echo).toContainText('read-only');
  await expect(entry.getByTestId('mcp-tool').filter({ hasText: 'delete_notes' })).toContainText('destructive');
  await ui.screenshot('host-mcp-tested');
  // Testing wrote nothing.
  expect(JSON.parse(await readFile(join(temp.home, 'hearth.json'), 'utf8')).mcp).toBeUndefined();

  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add.getByRole('status')).toHaveText('Added to hearth.json: fixture.');
  const card = page.getByRole('listitem', { name: 'fixture', exact: true });
  await expect(card).toBeVisible();
  const config = JSON.parse(await readFile(join(temp.home, 'hearth.json'), 'utf8'));
  expect(config.mcp.servers).toEqual({ fixture: fixtureMcpServerCommand() });

  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByTestId('mcp-state')).toHaveText('connected', { timeout: 45_000 });
  await expect(card.getByTestId('mcp-test-result')).toHaveText(/^Connected: \d+ tools\.$/);
  await ui.screenshot('host-mcp-added');
});

test('mcp: add a remote server by URL, authorize it in the page Authorize opens, see it connect', async ({
  page,
  context,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token);
  await page.getByRole('navigation', { name: 'Main' }).getByTestId('nav-mcp').click();
  const add = page.getByRole('region', { name: 'Add server' });
  await add.getByRole('tab', { name: 'URL' }).click();
  await add.getByLabel('Server URL').fill('ftp://example.com/mcp');
  await add.getByRole('button', { name: 'Test connection' }).click();
  await expect(add.getByRole('alert')).toHaveText('"ftp://example.com/mcp" is not an http:// or https:// URL.');
  await add.getByLabel('Name', { exact: true }).fill('docs');
  await add.getByLabel('Server URL').fill(remote.url);
  await add.getByRole('button', { name: 'Test connection' }).click();
  const entry = add.getByRole('listitem', { name: 'Server docs' });
  await expect(entry.getByTestId('mcp-test-result')).toContainText('needs you to authorize Hearth', {
    timeout: 45_000,
  });
  expect(oauth.counts.registrations).toBe(0);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add.getByRole('status')).toHaveText('Added to hearth.json: docs.');

  const card = page.getByRole('listitem', { name: 'docs', exact: true });
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByTestId('mcp-state')).toHaveText('needs authorization', { timeout: 45_000 });
  const opened = context.waitForEvent('page');
  await card.getByRole('button', { name: 'Authorize' }).click();
  const consent = await opened;
  // The fake authorization server approves at once and sends the browser back to the gateway.
  await expect(consent.locator('body')).toContainText('Hearth is authorized for MCP server "docs".', {
    timeout: 30_000,
  });
  expect(consent.url().startsWith(`${host.url}/mcp/oauth/callback?`)).toBe(true);
  await expect(card.getByTestId('mcp-state')).toHaveText('connected', { timeout: 30_000 });
  await expect(card).toContainText('11 tools');
  // The test that said it needs authorizing is gone with it.
  await expect(card.getByTestId('mcp-test-result')).toHaveCount(0);
  await expect(card.getByTestId('mcp-error')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Forget authorization' })).toBeVisible();
  await ui.screenshot('host-mcp-authorized');
});
