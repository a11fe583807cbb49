import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { ControlUiPage } from './control-ui-page.js';

const artifacts = fileURLToPath(new URL('../../artifacts/ui/', import.meta.url));

/** The Control UI on a phone that pairs itself with a setup code; specs talk to this, never to selectors. */
export class PhonePage extends ControlUiPage {
  constructor(page: Page) {
    super(page);
  }

  /** What the phone's camera opens from the QR: the https Control UI with `#pair=<code>`. */
  async openPairingLink(webUrl: string): Promise<void> {
    await this.page.goto(webUrl);
  }

  get pairingScreen(): Locator {
    return this.page.getByTestId('pairing-screen');
  }

  get waitingHeading(): Locator {
    return this.page.getByRole('heading', { name: 'Waiting for approval on your computer…' });
  }

  get deviceName(): Locator {
    return this.page.getByTestId('pairing-device-name');
  }

  get deviceId(): Locator {
    return this.page.getByTestId('pairing-device-id');
  }

  /** Why pairing stopped (expired, already used, removed…). */
  get problem(): Locator {
    return this.pairingScreen.getByRole('alert');
  }

  /** The "Pair this device" screen: paste a code or hearth:// link. */
  async pasteCode(text: string): Promise<void> {
    await this.page.getByLabel('Pairing code or link').fill(text);
    await this.page.getByRole('button', { name: 'Pair', exact: true }).click();
  }

  async waitConnected(): Promise<void> {
    // On a phone the badge sits in the More sheet (hidden until opened); attached is enough.
    await this.connectionBadge.filter({ hasText: 'Connected' }).first().waitFor({ state: 'attached' });
  }

  storedDeviceToken(): Promise<string | null> {
    return this.page.evaluate(() => localStorage.getItem('hearth.deviceToken'));
  }

  override async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `${artifacts}phone-${name}.png`, fullPage: false });
  }
}
