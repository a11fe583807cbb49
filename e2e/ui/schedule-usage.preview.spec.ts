import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ControlUiPage } from './pages/control-ui-page.js';
import { type PreviewGateway, startPreviewGateway } from './preview-gateway.js';

// The Schedule and Usage views in the built UI against the preview stand-in (preview-schedule.ts).
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

let gateway: PreviewGateway;
test.beforeAll(async () => {
  gateway = await startPreviewGateway({ uiDir });
});
test.afterAll(async () => {
  await gateway.close();
});

test('schedule: jobs, the heartbeat and run history; switching a job off goes to the gateway', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'schedule');
  await expect(ui.heading('Schedule')).toBeVisible();
  const heartbeat = page.getByTestId('heartbeat-card');
  await expect(heartbeat.getByText('Tomorrow: dentist at 9:30')).toBeVisible();
  await expect(heartbeat.getByTestId('heartbeat-last-result')).toHaveText('Reported');
  const inbox = page.getByRole('listitem', { name: 'Inbox digest' });
  await expect(inbox.getByText('0 8 * * 1-5 (Europe/Lisbon)')).toBeVisible();
  await expect(page.getByTestId('cron-run')).toHaveCount(4);
  await ui.screenshot('schedule');
  // The switch follows the gateway's answer (the job as saved), not the click itself.
  await inbox.getByLabel('Enabled').click();
  await expect(inbox.getByLabel('Enabled')).not.toBeChecked();
  await expect(inbox.getByText('not scheduled')).toBeVisible();
  expect(gateway.calls('cron.update')).toEqual([{ id: 'inbox01', patch: { enabled: false } }]);
});

test('usage: totals, the day chart, purposes and a limit set from the form', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'usage');
  await expect(ui.heading('Usage')).toBeVisible();
  await expect(page.getByTestId('usage-day-bar')).toHaveCount(30);
  await expect(page.getByTestId('usage-purpose').first()).toContainText('Chat');
  await ui.screenshot('usage');
  const limits = page.getByRole('region', { name: 'Limits' });
  await limits.getByLabel('Tokens (empty: none)').fill('100000');
  await limits.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('listitem', { name: 'All agents per day' })).toBeVisible();
  expect(gateway.calls('usage.limits.set')).toEqual([
    { scope: 'global', period: 'day', tokens: 100000, costUsd: null },
  ]);
});
