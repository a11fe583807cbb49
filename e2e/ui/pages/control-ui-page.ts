import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';

const artifacts = fileURLToPath(new URL('../../artifacts/ui/', import.meta.url));

export type ViewName =
  | 'chat'
  | 'approvals'
  | 'auth'
  | 'memory'
  | 'dreams'
  | 'schedule'
  | 'usage'
  | 'canvas'
  | 'terminal'
  | 'devices'
  | 'settings';

/** One server → client event frame the page received over its gateway WebSocket. */
export interface SeenEvent {
  event: string;
  payload: Record<string, unknown>;
}

/** The Control UI as a user sees it; specs talk to this, never to selectors. */
export class ControlUiPage {
  /** Every gateway event the page received (recorded from the page's own WebSocket). */
  readonly events: SeenEvent[] = [];

  constructor(readonly page: Page) {
    page.on('websocket', (ws) => {
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload !== 'string') return;
        try {
          const frame = JSON.parse(payload) as { type?: string; event?: string; payload?: Record<string, unknown> };
          if (frame.type === 'event' && frame.event)
            this.events.push({ event: frame.event, payload: frame.payload ?? {} });
        } catch {
          // Not a gateway frame.
        }
      });
    });
  }

  /** `chat` events of one state (delta / final / error…) the page received. */
  chatEvents(state: string): SeenEvent[] {
    return this.events.filter((e) => e.event === 'chat' && e.payload.state === state);
  }

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

  /** A tool call in the transcript, by the gist shown on its summary line (e.g. the command). */
  toolCall(gist: string): Locator {
    return this.transcript.locator('details.tool-call').filter({ hasText: gist });
  }
  /** Opens a tool call and returns where its output shows. */
  async toolOutput(gist: string): Promise<Locator> {
    const call = this.toolCall(gist);
    if ((await call.getAttribute('open')) === null) await call.locator('summary').click();
    return call.locator('.tool-output');
  }

  // Approvals
  get approvalCards(): Locator {
    return this.page.getByTestId('approval-card');
  }

  /** A decided command in the approvals history. */
  decidedCommand(command: string): Locator {
    return this.page.getByRole('listitem').locator('code', { hasText: command });
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
  /** The card showing MEMORY.md or USER.md. */
  memoryDocument(name: 'MEMORY.md' | 'USER.md'): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }
  /** The "Search by meaning" card: local embedding models, install progress, re-embed progress. */
  get memoryModels(): Locator {
    return this.page.getByTestId('memory-models');
  }
  memoryModel(name: string): Locator {
    return this.page.getByTestId('memory-model').filter({ hasText: name });
  }

  // Dreams
  /** The line above the diary: next scheduled run, or how to turn Dreaming on; the last run. */
  get dreamsSchedule(): Locator {
    return this.page.getByTestId('dreams-schedule');
  }

  get dreamsDiary(): Locator {
    return this.page.getByTestId('dreams-diary');
  }

  /** A tab of the Dreams view (Diary, Review (N), Phase reports, Promotion candidates). */
  dreamsTab(name: string | RegExp): Locator {
    return this.page.getByRole('tab', { name });
  }

  /** A promotion candidate waiting for review (its MEMORY.md diff and Approve / Reject). */
  dreamPending(text: string): Locator {
    return this.page.getByTestId('dream-pending').filter({ hasText: text });
  }

  get dreamsPendingList(): Locator {
    return this.page.getByTestId('dream-pending');
  }

  // Canvas
  get canvasFrame() {
    return this.page.frameLocator('[data-testid="canvas-frame"]');
  }

  // Terminal
  get terminal(): Locator {
    return this.page.getByTestId('terminal');
  }

  /** Every card on the current view. */
  get cards(): Locator {
    return this.page.locator('main .card');
  }

  /** How far past the right edge of the viewport an element reaches (0 when it fits). */
  async overflowRight(locator: Locator): Promise<number> {
    const box = await locator.boundingBox();
    const width = this.page.viewportSize()?.width ?? 0;
    return box ? Math.max(0, Math.ceil(box.x + box.width - width)) : 0;
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `${artifacts}${name}.png`, fullPage: false });
  }
}
