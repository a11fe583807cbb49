import type { Locator } from 'playwright-core';
import type { ToolImage } from '../tool.js';
import { BrowserError } from './address-check.js';
import type { BrowserTab } from './browser-session.js';

const refPattern = /\[ref=([^\]\s]+)\]/g;

/** The refs (`e5`, `f1e3` in an iframe) a Playwright AI-mode aria snapshot names. */
export function refsOf(snapshot: string): Set<string> {
  return new Set([...snapshot.matchAll(refPattern)].map((match) => match[1]!));
}

/** The tab's title and address, the line every result starts with. */
export async function tabLine(tab: BrowserTab): Promise<string> {
  const title = await tab.page.title().catch(() => '');
  return `Tab ${tab.id}: ${title ? `"${title}" ` : ''}${tab.page.url()}`;
}

/**
 * The page as the model reads it: Playwright's accessibility tree in AI mode (roles, names,
 * states, and a `[ref=eN]` on each element that can be acted on), cut at `maxChars`. Taking
 * it makes its refs the tab's current ones: Playwright resolves refs of the latest snapshot only.
 */
export async function snapshotOf(tab: BrowserTab, maxChars: number): Promise<string> {
  const tree = await tab.page.ariaSnapshot({ mode: 'ai' });
  tab.refs = refsOf(tree);
  const cut =
    tree.length > maxChars
      ? `${tree.slice(0, maxChars)}\n[snapshot cut at ${maxChars} of ${tree.length} characters (tools.browser.maxChars); use extract for the text]`
      : tree;
  return `${await tabLine(tab)}\n${cut}`;
}

/** A screenshot of the viewport as the model's image part (JPEG: a tenth of a PNG's bytes). */
export async function screenshotOf(tab: BrowserTab): Promise<ToolImage> {
  const bytes = await tab.page.screenshot({ type: 'jpeg', quality: 70 });
  return { mediaType: 'image/jpeg', data: bytes.toString('base64') };
}

/** `e5`, also as the model sometimes copies it: `[ref=e5]`, `ref=e5`. */
export function normalizeRef(raw: string): string {
  return raw
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/^ref=/, '');
}

/** The element behind a ref of the tab's latest snapshot, or an error saying what to do. */
export async function locateRef(tab: BrowserTab, raw: string): Promise<Locator> {
  const ref = normalizeRef(raw);
  if (!tab.refs.has(ref)) {
    const hint = tab.refs.size === 0 ? 'no snapshot of this page yet' : `refs look like ${[...tab.refs][0]}`;
    throw new BrowserError(
      `unknown ref "${raw}": not in the latest snapshot of tab ${tab.id} (${hint}); take a snapshot and use a ref from it`,
    );
  }
  const locator = tab.page.getByRef(ref);
  if ((await locator.count()) === 0)
    throw new BrowserError(
      `ref ${ref} is no longer on the page (it changed since the snapshot); take a snapshot and use a ref from it`,
    );
  return locator;
}
