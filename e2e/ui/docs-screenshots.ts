import type { Page } from '@playwright/test';

export type ScreenshotDevice = 'desktop' | 'phone';
export type ScreenshotScheme = 'light' | 'dark';

/** The two window sizes every docs screenshot is taken at. */
const viewports = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/**
 * One screen in light and dark, at 1280×800 and 390×844 (docs/screenshots' naming is the caller's
 * `path`), then the page back at the desktop size in light for the test's next step. `arrange` runs
 * once the size is set: scrolling the subject into view, or waiting for what a theme change reloads.
 */
export async function shootEveryVariant(
  page: Page,
  options: {
    path(device: ScreenshotDevice, scheme: ScreenshotScheme): string;
    arrange?(): Promise<unknown>;
  },
) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [device, viewport] of viewports) {
      await page.setViewportSize(viewport);
      await options.arrange?.();
      await page.screenshot({ path: options.path(device, scheme) });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}
