import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { type BrowserTestSite, startBrowserTestSite } from '../../testing/browser-test-site.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import type { ToolContext, ToolOutput } from '../tool.js';
import { type ResolveAll, systemResolveAll } from '../web/index.js';
import { type BrowserToolsConfig, browserToolsConfigSchema } from './browser-config.js';
import { systemChromiumPaths } from './browser-executable.js';
import type { SavedDownload } from './browser-session.js';
import { BrowserSessions } from './browser-sessions.js';
import { type BrowserInput, createBrowserTool } from './browser-tool.js';

// The browser tool against a real headless Chromium and a loopback site. The policy allows
// 127.0.0.1 (the site) and nothing else private, so 127.0.0.2 stands for the private network.

const chromium = systemChromiumPaths.find((path) => existsSync(path));
if (!chromium) console.warn(`browser-tool.test: skipped, no Chromium at ${systemChromiumPaths.join(', ')}`);

describe.skipIf(!chromium)('the browser tool in a real Chromium', () => {
  let site: BrowserTestSite;
  let temp: string;
  let sessions: BrowserSessions;
  const clock = createFakeClock();
  let config: BrowserToolsConfig;
  let tool: ReturnType<typeof createBrowserTool>;

  beforeAll(async () => {
    site = await startBrowserTestSite();
    temp = await mkdtemp(join(tmpdir(), 'hearth-browser-'));
    config = browserToolsConfigSchema.parse({ executablePath: chromium, allowHosts: ['127.0.0.1'], idleMs: 60_000 });
    // Made-up names: shop.test is the site's address; mixed.test has a private address among public ones.
    const resolveAll: ResolveAll = async (host) => {
      if (host === 'shop.test') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'mixed.test')
        return [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ];
      return systemResolveAll(host);
    };
    sessions = new BrowserSessions({
      stateDir: join(temp, 'state'),
      config: () => config,
      clock,
      log: silentLogger,
      resolveAll,
    });
    // An agent named "texty" runs on a model that cannot see images.
    tool = createBrowserTool({
      sessions,
      config: () => config,
      resolveAll,
      imagesNotShown: ({ agentId }) => (agentId === 'texty' ? 'the model texty-1 takes text only' : undefined),
    });
  });
  afterAll(async () => {
    await sessions?.dispose();
    await site?.close();
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  const context = (agentId = 'main'): ToolContext => ({
    agentId,
    sessionKey: `agent:${agentId}:main`,
    workspaceDir: join(temp, `workspace-${agentId}`),
    signal: new AbortController().signal,
    log: silentLogger,
  });
  const call = (input: BrowserInput, agentId?: string): Promise<ToolOutput> => tool.execute(input, context(agentId));
  /** The ref of the line of the snapshot that contains `label`. */
  const refOf = (output: string, label: string): string => {
    const line = output.split('\n').find((text) => text.includes(label) && text.includes('[ref='));
    const ref = line && /\[ref=([^\]]+)\]/.exec(line)?.[1];
    if (!ref) throw new Error(`no ref for ${label} in:\n${output}`);
    return ref;
  };

  it('opens a page and snapshots it: a tree with refs, and a screenshot', async () => {
    const opened = await call({ action: 'open', url: `${site.url}/` });
    expect(opened.isError).toBeFalsy();
    expect(opened.output).toContain(`Tab t1: "Order form" ${site.url}/`);
    expect(opened.output).toMatch(/textbox "Your name" \[ref=e\d+\]/);
    expect(opened.output).toMatch(/button "Send order" \[ref=e\d+\]/);
    const snapshot = await call({ action: 'snapshot' });
    expect(snapshot.output).toMatch(/combobox "Colour" \[ref=e\d+\]/);
    expect(snapshot.images).toHaveLength(1);
    expect(snapshot.images![0]!.mediaType).toBe('image/jpeg');
    expect(Buffer.from(snapshot.images![0]!.data, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // The browser's profile is the agent's own, under the state folder.
    expect(existsSync(join(temp, 'state', 'browser', 'main', 'profile'))).toBe(true);
  }, 60_000); // the first action starts Chromium

  it('a model that cannot see images gets the tree and a note instead of the screenshot', async () => {
    await call({ action: 'open', url: `${site.url}/` }, 'texty');
    const snapshot = await call({ action: 'snapshot' }, 'texty');
    expect(snapshot.images).toBeUndefined();
    expect(snapshot.output).toMatch(/combobox "Colour" \[ref=e\d+\]/);
    expect(snapshot.output).toContain('No screenshot: the model texty-1 takes text only');
    await call({ action: 'close' }, 'texty');
  }, 60_000);

  it('types, selects and clicks by ref, and reads the page that results', async () => {
    const page = await call({ action: 'open', url: `${site.url}/`, tab: 't1' });
    const typed = await call({ action: 'type', ref: refOf(page.output, 'Your name'), text: 'Ada' });
    expect(typed.output).toContain('Typed into');
    const selected = await call({ action: 'select', ref: refOf(typed.output, 'Colour'), text: 'Blue' });
    expect(selected.output).toContain('Selected blue');
    const clicked = await call({ action: 'click', ref: refOf(selected.output, 'Send order') });
    expect(clicked.output).toContain('"Order received"');
    const text = await call({ action: 'extract' });
    expect(text.output).toContain('Order for Ada: one blue mug.');
    const waited = await call({ action: 'wait', text: 'Thank you' });
    expect(waited.output).toContain('"Thank you" is on the page.');
  });

  it('typing with submit presses Enter and lands on the result', async () => {
    const page = await call({ action: 'open', url: `${site.url}/` });
    expect(page.output).toContain('Tab t2:');
    const sent = await call({ action: 'type', ref: refOf(page.output, 'Your name'), text: 'Grace', submit: true });
    expect(sent.output).toContain('Order for Grace: one red mug.');
    const closed = await call({ action: 'close', tab: 't2' });
    expect(closed.output).toBe('Closed tab t2. Open tabs: t1.');
  });

  it('refuses an unknown ref, a missing field and an unknown tab, saying what to do', async () => {
    await call({ action: 'open', url: `${site.url}/`, tab: 't1' });
    const unknown = await call({ action: 'click', ref: 'e999' });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.output).toMatch(/^unknown ref "e999": not in the latest snapshot of tab t1 .*take a snapshot/);
    expect(await call({ action: 'type', ref: 'e1' })).toEqual({ output: 'type needs text', isError: true });
    expect(await call({ action: 'snapshot', tab: 't9' })).toEqual({
      output: 'no tab t9; open tabs: t1',
      isError: true,
    });
  });

  it('refuses private addresses the config does not allow, also behind a redirect', async () => {
    const direct = await call({ action: 'open', url: `http://127.0.0.2:${site.port}/` });
    expect(direct.isError).toBe(true);
    expect(direct.output).toContain('refused: 127.0.0.2 is 127.0.0.2 (loopback address)');
    const scheme = await call({ action: 'open', url: 'file:///etc/passwd' });
    expect(scheme).toEqual({ output: 'refused: the browser opens only http and https URLs, not file:', isError: true });
    // The redirect happens inside Chromium; the proxy refuses the second hop.
    const redirected = await call({ action: 'open', url: `${site.url}/to-private`, tab: 't1' });
    expect(redirected.isError).toBe(true);
    expect(redirected.output).toContain('refused: 127.0.0.2 is 127.0.0.2 (loopback address)');
    expect(redirected.output).not.toContain('Order form');
  });

  it('connects to the address Hearth checked, and refuses a name with any private address', async () => {
    // Chromium never resolves shop.test itself: the proxy connects where its check looked.
    const pinned = await call({ action: 'open', url: `http://shop.test:${site.port}/`, tab: 't1' });
    expect(pinned.output).toContain(`Tab t1: "Order form" http://shop.test:${site.port}/`);
    const mixed = await call({ action: 'open', url: `http://mixed.test:${site.port}/`, tab: 't1' });
    expect(mixed).toMatchObject({ isError: true });
    expect(mixed.output).toContain('refused: mixed.test is 10.0.0.7 (private address)');
  });

  it('lets WebSockets through to allowed hosts only', async () => {
    await call({ action: 'open', url: `${site.url}/socket`, tab: 't1' });
    expect((await call({ action: 'wait', text: 'socket said echo hi' })).isError).toBeFalsy();
    const opened = await call({ action: 'open', url: `${site.url}/socket?to=127.0.0.2`, tab: 't1' });
    const refused = await call({ action: 'wait', text: 'socket failed' });
    expect(refused.isError).toBeFalsy();
    // The page itself loaded; the refusal is told with the result of the action it happened in.
    expect(`${opened.output}\n${refused.output}`).toContain('refused: 127.0.0.2 is 127.0.0.2 (loopback address)');
  });

  it('saves a download into the workspace downloads/ folder', async () => {
    const page = await call({ action: 'open', url: `${site.url}/files`, tab: 't1' });
    const session = await sessions.get('main');
    const saved = new Promise<SavedDownload>((resolve) => {
      const listener = session.onDownload((download) => {
        listener.dispose();
        resolve(download);
      });
    });
    const clicked = await call({ action: 'click', ref: refOf(page.output, 'Monthly report') });
    expect(await saved).toEqual({ path: 'downloads/report.txt', bytes: 12 });
    expect(await readFile(join(temp, 'workspace-main', 'downloads', 'report.txt'), 'utf8')).toBe('report body\n');
    // The model hears of it once: with the click's result if it landed by then, else with the next one.
    const next = await call({ action: 'extract' });
    const told = `${clicked.output}\n${next.output}`.split(
      'Downloaded downloads/report.txt (12 bytes) into the workspace.',
    );
    expect(told).toHaveLength(2);
  });

  it('closes an idle tab, and the browser with its last tab; the next open starts a fresh one', async () => {
    const first = await call({ action: 'open', url: `${site.url}/` }, 'idle');
    expect(first.output).toContain('Tab t1:');
    await call({ action: 'open', url: `${site.url}/files` }, 'idle');
    const session = await sessions.get('idle');
    const [t1, t2] = session.listTabs();
    clock.advance(30_000);
    await call({ action: 'snapshot', tab: 't2' }, 'idle'); // t2 is used, t1 is not
    const t1Closed = t1!.page.waitForEvent('close');
    clock.advance(30_000);
    await t1Closed;
    expect(session.listTabs().map((tab) => tab.id)).toEqual(['t2']);
    expect((await call({ action: 'snapshot', tab: 't1' }, 'idle')).output).toBe('no tab t1; open tabs: t2');
    expect(t2!.page.isClosed()).toBe(false);
    clock.advance(60_000);
    await session.closed;
    expect(await sessions.running('idle')).toBeUndefined();
    expect((await call({ action: 'close' }, 'idle')).output).toBe('The browser is not open.');
    const again = await call({ action: 'open', url: `${site.url}/` }, 'idle');
    expect(again.output).toContain('Tab t1:');
  }, 120_000); // two Chromium starts, slow on a loaded machine
});
