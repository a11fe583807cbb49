import type { Locator, Page } from '@playwright/test';

/** The chat list beside the conversation: new chat, each chat's menu, and the transcript's fork. */
export class ChatListPage {
  constructor(readonly page: Page) {}

  get list(): Locator {
    return this.page.getByRole('complementary', { name: 'Sessions' });
  }

  chat(name: string | RegExp): Locator {
    return this.list.getByRole('button', { name, exact: typeof name === 'string' });
  }

  get title(): Locator {
    return this.page.locator('.conversation-title');
  }

  async newChat(): Promise<void> {
    await this.list.getByRole('button', { name: 'New chat' }).click();
  }

  async openMenu(name: string): Promise<void> {
    await this.list.getByRole('button', { name: `Chat actions for ${name}` }).click();
  }

  async rename(name: string, to: string): Promise<void> {
    await this.openMenu(name);
    await this.list.getByRole('menuitem', { name: 'Rename' }).click();
    await this.list.getByRole('textbox', { name: `New name for ${name}` }).fill(to);
    await this.list.getByRole('button', { name: 'Save' }).click();
  }

  async choose(name: string, action: 'Pin' | 'Unpin' | 'Archive' | 'Unarchive' | 'Delete'): Promise<void> {
    await this.openMenu(name);
    await this.list.getByRole('menuitem', { name: action }).click();
  }

  get deleteConfirmation(): Locator {
    return this.list.getByRole('alertdialog');
  }

  async confirmDelete(): Promise<void> {
    await this.deleteConfirmation.getByRole('button', { name: 'Delete for good' }).click();
  }

  async forkFrom(text: string): Promise<void> {
    const message = this.page.getByRole('article').filter({ hasText: text });
    await message.hover();
    await message.getByRole('button', { name: 'Fork from here' }).click();
  }
}
