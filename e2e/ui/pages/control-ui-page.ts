import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';

const artifacts = fileURLToPath(new URL('../../artifacts/ui/', import.meta.url));

export type ViewName =
  | 'chat'
  | 'approvals'
  | 'auth'
  | 'memory'
  | 'dreams'
  | 'canvas'
  | 'terminal'
  | 'devices'
  | 'settings';

/** The Control UI as a user sees it; specs talk to this, never to selectors. */
export class ControlUiPage {
  constructor(readonly page: Page) {}

  async open(baseUrl: string, token: string, view?: ViewName): Promise<void> {
    const query = view ? `?view=${view}` : '';
    await this.page.goto(`${baseUrl}/${query}#token=${encodeURIComponent(token)}`);
    // On a phone the badge sits in the More sheet (hidden until opened); attached is enough.
    await this.connectionBadge.filter({ hasText: 'Connected' }).first().waitFor({ state: 'attached' });
  }

  get connectionBadge(): Locator {
    return this.page.locator('output.badge');
  }

  async go(view: ViewName): Promise<void> {
    const sidebar = this.page.getByRole('navigation', { name: 'Main' });
    if (await sidebar.isVisible()) {
      await sidebar.getByTestId(`nav-${view}`).click();
      return;
    }
    const tabs = this.page.getByRole('navigation', { name: 'Tabs' });
    const tab = tabs.getByTestId(`nav-${view}`);
    if (await tab.count()) await tab.click();
    else {
      await tabs.getByTestId('nav-more').click();
      await this.page.getByRole('menu', { name: 'More' }).getByTestId(`nav-${view}`).click();
    }
  }

  heading(name: string): Locator {
    return this.page.getByRole('heading', { name, exact: true });
  }

  // Chat
  get composer(): Locator {
    return this.page.getByRole('textbox', { name: 'Message Hearth…' });
  }
  get transcript(): Locator {
    return this.page.getByTestId('transcript');
  }
  async send(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }

  // Approvals
  get approvalCards(): Locator {
    return this.page.getByTestId('approval-card');
  }

  // Auth
  profile(label: string): Locator {
    return this.page.getByTestId('auth-profile').filter({ hasText: label });
  }

  // Memory
  async searchMemory(query: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Search memory' }).fill(query);
    await this.page.getByRole('button', { name: 'Search', exact: true }).click();
  }
  get memoryHits(): Locator {
    return this.page.getByTestId('memory-hit');
  }

  // Canvas
  get canvasFrame() {
    return this.page.frameLocator('[data-testid="canvas-frame"]');
  }

  // Terminal
  get terminal(): Locator {
    return this.page.getByTestId('terminal');
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `${artifacts}${name}.png`, fullPage: false });
  }
}
