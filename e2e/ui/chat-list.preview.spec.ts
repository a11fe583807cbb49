import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ChatListPage } from './pages/chat-list-page.js';
import { ControlUiPage } from './pages/control-ui-page.js';
import { type PreviewGateway, startPreviewGateway } from './preview-gateway.js';

// The chat list in the built UI (issue #20): a new named chat, rename, pin, delete after the
// confirmation, and a fork from a message, against the preview gateway's chat methods.
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

let gateway: PreviewGateway;
test.beforeAll(async () => {
  gateway = await startPreviewGateway({ uiDir });
});
test.afterAll(async () => {
  await gateway.close();
});

test('chat list: readable names, a new named chat renamed and deleted, a fork from a message', async ({ page }) => {
  const ui = new ControlUiPage(page);
  const chats = new ChatListPage(page);
  await ui.open(gateway.url, gateway.token, 'chat');

  await expect(chats.chat('Main')).toBeVisible();
  await expect(chats.chat('Pinned Lisbon trip')).toBeVisible();
  await expect(chats.list.getByText('agent:main:main')).toHaveCount(0);
  await expect(chats.chat(/old-notes/)).toHaveCount(0);

  // A fresh chat is "New chat" until its first message or a rename names it, never its generated label.
  await chats.newChat();
  await expect(chats.title).toHaveText('New chat');
  await expect(chats.list.getByText('chat-00000001')).toHaveCount(0);
  await chats.rename('New chat', 'Groceries');
  await expect(chats.chat('Groceries')).toBeVisible();
  await ui.screenshot('chat-list-named');

  await chats.choose('Groceries', 'Delete');
  await expect(chats.deleteConfirmation).toContainText('Delete "Groceries" and its transcript?');
  await chats.confirmDelete();
  await expect(chats.chat('Groceries')).toHaveCount(0);
  expect(gateway.calls('sessions.delete')).toMatchObject([{ deleteTranscript: true }]);

  await chats.chat('Main').click();
  await expect(ui.transcript.getByText('Can you check why the build is failing?')).toBeVisible();
  await chats.forkFrom('Can you check why the build is failing?');
  await expect(chats.title).toHaveText('New chat');
  expect(gateway.calls('sessions.fork')).toMatchObject([{ key: 'agent:main:main', messageId: 'm1' }]);
});
