import { mkdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { BrowserContext, Download, Page } from 'playwright-core';
import type { Clock } from '../../base/clock.js';
import type { Disposable } from '../../base/disposable.js';
import type { Logger } from '../../base/logger.js';
import { formatBytes } from '../files/image-file.js';
import { createAddressPolicy, type ResolveAll } from '../web/index.js';
import { BrowserError } from './address-check.js';
import type { BrowserToolsConfig } from './browser-config.js';
import { chooseExecutable } from './browser-executable.js';
import { type GuardProxy, startGuardProxy } from './guard-proxy.js';

const MAX_NOTES = 20;
const LAUNCH_TIMEOUT_MS = 60_000;

/** One open page of an agent's browser, named `t1`, `t2`… for the model. */
export interface BrowserTab {
  readonly id: string;
  readonly page: Page;
  /** The refs of this tab's latest snapshot: only those resolve (Playwright keeps only the latest). */
  refs: ReadonlySet<string>;
  idle?: Disposable;
}

export interface SavedDownload {
  /** Relative to the workspace: `downloads/report.pdf`. */
  path: string;
  bytes: number;
}

export interface BrowserSessionDeps {
  agentId: string;
  /** The agent's own profile folder (never the person's browser profile). */
  profileDir: string;
  /** Where Chromium puts a download before it is moved into the workspace. */
  downloadsTempDir: string;
  config: () => BrowserToolsConfig;
  clock: Clock;
  log: Logger;
  resolveAll?: ResolveAll;
  /** The browser closed (last tab closed, idle, crashed, or closed by the person). */
  onClosed(): void;
}

/**
 * One agent's browser: a persistent Chromium context on the agent's own profile, behind the
 * address-checking proxy; its tabs, each closed after `idleMs` unused (the browser closes with
 * the last one); downloads moved into the workspace's `downloads/`.
 */
export class BrowserSession {
  private readonly tabs = new Map<string, BrowserTab>();
  private readonly byPage = new Map<Page, BrowserTab>();
  private nextTab = 1;
  private currentId: string | undefined;
  /** Things that happened beside the actions (refusals, downloads, new tabs), for the next result. */
  private notes: string[] = [];
  private droppedNotes = 0;
  private readonly pendingDownloads = new Set<Promise<void>>();
  private readonly downloadListeners = new Set<(saved: SavedDownload) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;
  /** Set while the tool opens a tab itself, so only tabs a site opens are noted as new. */
  private openingTab = false;
  /** The workspace of the latest call: downloads go there. */
  workspaceDir: string | undefined;

  private constructor(
    private readonly deps: BrowserSessionDeps,
    private readonly context: BrowserContext,
    private readonly proxy: GuardProxy,
  ) {
    for (const page of context.pages()) this.adopt(page, false);
    context.on('page', (page) => {
      const tab = this.adopt(page, true);
      if (!this.openingTab) this.note(`New tab ${tab.id} opened by the page (now the current tab).`);
    });
    context.on('close', () => void this.close());
  }

  static async launch(deps: BrowserSessionDeps): Promise<BrowserSession> {
    const config = deps.config();
    const executablePath = chooseExecutable(config.executablePath);
    let session: BrowserSession | undefined;
    const proxy = await startGuardProxy({
      policy: () => createAddressPolicy(deps.config()),
      resolveAll: deps.resolveAll,
      onRefusal: (message) => session?.note(message),
    });
    try {
      await mkdir(deps.profileDir, { recursive: true, mode: 0o700 });
      await mkdir(deps.downloadsTempDir, { recursive: true, mode: 0o700 });
      // Loaded on first use: Playwright is a large module most runs never need.
      const { chromium } = await import('playwright-core');
      const context = await chromium
        .launchPersistentContext(deps.profileDir, {
          ...(executablePath ? { executablePath } : {}),
          headless: config.headless,
          chromiumSandbox: config.sandbox ?? process.getuid?.() !== 0,
          // `<-loopback>` sends loopback through the proxy too (Chromium bypasses it otherwise).
          proxy: { server: proxy.url, bypass: '<-loopback>' },
          acceptDownloads: true,
          downloadsPath: deps.downloadsTempDir,
          viewport: { width: 1280, height: 800 },
          // A cold Chromium on a busy machine takes longer than one action may.
          timeout: Math.max(config.timeoutMs, LAUNCH_TIMEOUT_MS),
        })
        .catch((error: Error) => {
          throw new BrowserError(launchFailure(executablePath, error));
        });
      context.setDefaultTimeout(config.timeoutMs);
      context.setDefaultNavigationTimeout(config.timeoutMs);
      session = new BrowserSession(deps, context, proxy);
      deps.log.info('browser started', { agentId: deps.agentId, executablePath: executablePath ?? 'playwright' });
      return session;
    } catch (error) {
      await proxy.close();
      throw error;
    }
  }

  /** Runs one action at a time: parallel tool calls would otherwise interleave on a page. */
  run<T>(action: () => Promise<T>): Promise<T> {
    const next = this.queue.then(action, action);
    this.queue = next.catch(() => {});
    return next;
  }

  private markClosed: () => void = () => {};
  /** Settles once the browser has closed (idle, last tab, crash, disposal). */
  readonly closed: Promise<void> = new Promise((resolve) => {
    this.markClosed = resolve;
  });

  get isClosed(): boolean {
    return this.closing !== undefined;
  }

  /** The tab `id`, or the current tab. */
  tab(id?: string): BrowserTab {
    if (this.closing) throw new BrowserError('the browser was closed; open a page again');
    const wanted = id ?? this.currentId;
    if (!wanted) throw new BrowserError('no page is open: use action "open" with a url first');
    const tab = this.tabs.get(wanted);
    if (!tab) {
      const open = [...this.tabs.keys()];
      throw new BrowserError(
        `no tab ${wanted}${id ? '' : ' (it was closed)'}; open tabs: ${open.length > 0 ? open.join(', ') : 'none'}`,
      );
    }
    if (tab.page.isClosed()) throw new BrowserError(`tab ${tab.id} was closed`);
    return tab;
  }

  listTabs(): readonly BrowserTab[] {
    return [...this.tabs.values()];
  }

  /** A new tab, or the blank page a fresh browser starts with. */
  async newTab(): Promise<BrowserTab> {
    const spare = [...this.tabs.values()].find((tab) => tab.page.url() === 'about:blank' && tab.refs.size === 0);
    if (spare) return this.use(spare);
    if (this.tabs.size >= this.deps.config().maxTabs)
      throw new BrowserError(
        `refused: ${this.tabs.size} tabs are open, the most tools.browser.maxTabs allows; close one first`,
      );
    this.openingTab = true;
    let page: Page;
    try {
      page = await this.context.newPage();
    } finally {
      this.openingTab = false;
    }
    // The context's `page` event has adopted it.
    return this.use(this.byPage.get(page) ?? this.adopt(page, true));
  }

  /** Marks a tab current and used now: its idle timer starts again. */
  use(tab: BrowserTab): BrowserTab {
    this.currentId = tab.id;
    tab.idle?.dispose();
    tab.idle = this.deps.clock.setTimeout(() => {
      this.deps.log.info('browser tab idle; closed', { agentId: this.deps.agentId, tab: tab.id });
      void this.run(() => this.closeTab(tab));
    }, this.deps.config().idleMs);
    return tab;
  }

  /** Closes a tab; the browser closes with its last tab. */
  async closeTab(tab: BrowserTab): Promise<void> {
    this.forget(tab);
    await tab.page.close().catch(() => {});
    if (this.tabs.size === 0) await this.close();
  }

  /** What happened beside the actions since the last call (downloads saved, refusals, new tabs). */
  takeNotes(): string[] {
    const notes = this.notes;
    this.notes = [];
    this.droppedNotes = 0;
    return notes;
  }

  /** Waits for downloads that started to land in the workspace (each at most the action timeout). */
  async settleDownloads(): Promise<void> {
    await Promise.all([...this.pendingDownloads]);
  }

  onDownload(listener: (saved: SavedDownload) => void): Disposable {
    this.downloadListeners.add(listener);
    return { dispose: () => this.downloadListeners.delete(listener) };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const tab of [...this.tabs.values()]) this.forget(tab);
      await this.context.close().catch(() => {});
      await this.proxy.close();
      this.deps.log.info('browser closed', { agentId: this.deps.agentId });
      this.deps.onClosed();
      this.markClosed();
    })();
    return this.closing;
  }

  private note(line: string): void {
    if (this.notes.includes(line)) return;
    // A page refused a hundred times (a tracker on a private address) is told once, with a count.
    if (this.notes.length >= MAX_NOTES) {
      this.droppedNotes += 1;
      this.notes[MAX_NOTES] = `(${this.droppedNotes} more events not shown)`;
      return;
    }
    this.notes.push(line);
  }

  private adopt(page: Page, current: boolean): BrowserTab {
    const tab: BrowserTab = { id: `t${this.nextTab++}`, page, refs: new Set() };
    this.tabs.set(tab.id, tab);
    this.byPage.set(page, tab);
    page.on('download', (download) => this.save(download));
    page.once('close', () => {
      if (this.tabs.get(tab.id) === tab) this.forget(tab);
      if (this.tabs.size === 0 && !this.closing) void this.run(() => this.close());
    });
    if (current) this.use(tab);
    else if (!this.currentId) this.currentId = tab.id;
    return tab;
  }

  private forget(tab: BrowserTab): void {
    tab.idle?.dispose();
    this.tabs.delete(tab.id);
    this.byPage.delete(tab.page);
    if (this.currentId === tab.id) this.currentId = [...this.tabs.keys()].at(-1);
  }

  private save(download: Download): void {
    const saving = (async () => {
      const workspace = this.workspaceDir;
      const suggested = download.suggestedFilename();
      if (!workspace) {
        this.note(`Download of ${suggested} dropped: no workspace is known yet`);
        await download.delete().catch(() => {});
        return;
      }
      try {
        const folder = join(workspace, 'downloads');
        await mkdir(folder, { recursive: true });
        const name = await freeName(folder, safeFileName(suggested));
        await download.saveAs(join(folder, name));
        const saved = { path: `downloads/${name}`, bytes: (await stat(join(folder, name))).size };
        this.note(`Downloaded ${saved.path} (${formatBytes(saved.bytes)}) into the workspace.`);
        for (const listener of this.downloadListeners) listener(saved);
      } catch (error) {
        this.note(`Download of ${suggested} failed: ${firstLine(error)}`);
      }
    })();
    this.pendingDownloads.add(saving);
    void saving.finally(() => this.pendingDownloads.delete(saving));
  }
}

/** A name a site chose, made safe to write: no folders, no leading dots, no control characters. */
export function safeFileName(suggested: string): string {
  const name = basename(suggested.replaceAll('\\', '/'))
    .replace(/[\u0000-\u001f\u007f/:*?"<>|]/g, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 200);
  return name || 'download';
}

/** `report.pdf`, else `report (1).pdf`, … : a download never replaces a file. */
async function freeName(folder: string, name: string): Promise<string> {
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? name : `${stem} (${n})${extension}`;
    try {
      await stat(join(folder, candidate));
    } catch {
      return candidate;
    }
  }
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim();
}

function launchFailure(executablePath: string | undefined, error: Error): string {
  const message = error.message;
  if (!executablePath && /Executable doesn't exist|npx playwright install/i.test(message))
    return 'cannot start the browser: no Chromium found (looked for /usr/bin/chromium, chromium-browser, google-chrome); install one or set tools.browser.executablePath';
  if (/sandbox/i.test(message))
    return `cannot start ${executablePath ?? 'Chromium'}: its sandbox failed (set tools.browser.sandbox to false only if this system cannot sandbox)`;
  if (/ProcessSingleton|SingletonLock|profile.*in use/i.test(message))
    return "cannot start the browser: the agent's browser profile is in use by another Chromium (another Hearth running?)";
  return `cannot start ${executablePath ?? "Playwright's Chromium"}: ${firstLine(error)}`;
}
