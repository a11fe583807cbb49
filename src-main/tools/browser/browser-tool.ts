import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../tool.js';
import { createAddressPolicy, type ResolveAll } from '../web/index.js';
import { BrowserError, checkedHost, parseOpenUrl } from './address-check.js';
import type { AskBrowserAction } from './browser-approval.js';
import type { BrowserToolsConfig } from './browser-config.js';
import { type BrowserSession, type BrowserTab, firstLine } from './browser-session.js';
import type { BrowserSessions } from './browser-sessions.js';
import { locateRef, screenshotOf, snapshotOf, tabLine } from './page-snapshot.js';

export const BROWSER_TOOL_NAME = 'browser';

export const browserActions = ['open', 'snapshot', 'click', 'type', 'select', 'wait', 'extract', 'close'] as const;

// One tool with an `action` field: a loaded tool's schema is paid on every later call, and
// eight tools would cost eight descriptions.
const browserInput = z
  .object({
    action: z.enum(browserActions),
    url: z.string().optional().describe('open: the address'),
    ref: z.string().optional().describe('element ref from the latest snapshot, e.g. e5'),
    text: z.string().optional().describe('type: text to enter; select: the option; wait: text to wait for'),
    submit: z.boolean().optional().describe('type: press Enter after'),
    tab: z.string().optional().describe('tab id (default: the current tab)'),
  })
  .strict();

export type BrowserInput = z.infer<typeof browserInput>;

export interface BrowserToolDeps {
  sessions: BrowserSessions;
  config: () => BrowserToolsConfig;
  resolveAll?: ResolveAll;
  /** Asks a person before an action that may change something on a site (tools.browser.askBeforeActing). */
  ask?: AskBrowserAction;
  /** Why this call's model would not see a screenshot (then a note is sent instead); undefined: it would. */
  imagesNotShown?(context: Pick<ToolContext, 'agentId' | 'modelRef'>): string | undefined;
}

/**
 * `browser`: a real Chromium with the agent's own profile. `open` a URL (a new tab unless
 * `tab`); `snapshot` gives the accessibility tree with refs and a screenshot; `click`, `type`,
 * `select` act on a ref and answer with the new tree; `wait` for text; `extract` the text;
 * `close` a tab (the browser closes with the last one).
 */
export function createBrowserTool(deps: BrowserToolDeps): ToolDefinition<BrowserInput> {
  return {
    name: BROWSER_TOOL_NAME,
    description:
      'Drive a web browser (Chromium, its own profile). open a url; snapshot: page tree with element refs plus a screenshot; click/type/select by ref; wait for text; extract page text; close the tab. Downloads go to downloads/ in the workspace.',
    inputSchema: browserInput,
    async execute(input, context) {
      try {
        const missing = missingField(input);
        if (missing) throw new BrowserError(missing);
        if (input.action === 'close') return await close(deps, input, context);
        if (input.action === 'open') await preflight(input.url!, deps);
        const session = await deps.sessions.get(context.agentId);
        session.workspaceDir = context.workspaceDir;
        const refused = await askFirst(deps, session, input, context);
        if (refused) return refused;
        const notShown = deps.imagesNotShown?.(context);
        return await session.run(() => act(session, input, deps.config(), notShown));
      } catch (error) {
        return { output: describeFailure(input, error, deps.config().timeoutMs), isError: true };
      }
    },
  };
}

/** The site a tab shows: its host, or the URL where it has none (`about:blank`). */
function siteOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Click, type and select ask a person first (once per site per chat); undefined: go ahead. */
async function askFirst(
  deps: BrowserToolDeps,
  session: BrowserSession,
  input: BrowserInput,
  context: ToolContext,
): Promise<ToolOutput | undefined> {
  if (!deps.ask || !deps.config().askBeforeActing) return undefined;
  if (input.action !== 'click' && input.action !== 'type' && input.action !== 'select') return undefined;
  const url = session.tab(input.tab).page.url();
  const detail =
    input.action === 'click'
      ? `click ${input.ref}`
      : input.action === 'type'
        ? `type ${JSON.stringify(input.text)} into ${input.ref}${input.submit ? ' and press Enter' : ''}`
        : `choose ${JSON.stringify(input.text)} in ${input.ref}`;
  const answer = await deps.ask(
    {
      agentId: context.agentId,
      sessionKey: context.sessionKey,
      workspaceDir: context.workspaceDir,
      action: input.action,
      site: siteOf(url),
      url,
      detail,
    },
    context.signal,
  );
  return answer.allowed
    ? undefined
    : { output: `browser ${input.action} refused: ${answer.reason}. Nothing was done on the page.`, isError: true };
}

function missingField(input: BrowserInput): string | undefined {
  const needs: Partial<Record<BrowserInput['action'], (keyof BrowserInput)[]>> = {
    open: ['url'],
    click: ['ref'],
    type: ['ref', 'text'],
    select: ['ref', 'text'],
  };
  const absent = (needs[input.action] ?? []).filter((field) => input[field] === undefined);
  return absent.length > 0 ? `${input.action} needs ${absent.join(' and ')}` : undefined;
}

/** A clear refusal before any browser starts: the scheme, and every address the host resolves to. */
async function preflight(raw: string, deps: BrowserToolDeps): Promise<void> {
  const url = parseOpenUrl(raw);
  if (url.protocol === 'http:' || url.protocol === 'https:')
    await checkedHost(url.hostname, createAddressPolicy(deps.config()), deps.resolveAll);
}

/** `screenshotNotShown`: why the model would not see a screenshot; a note goes instead of the image. */
async function act(
  session: BrowserSession,
  input: BrowserInput,
  config: BrowserToolsConfig,
  screenshotNotShown?: string,
): Promise<ToolOutput> {
  const { maxChars } = config;
  let tab: BrowserTab;
  let done: string;
  switch (input.action) {
    case 'open': {
      tab = input.tab ? session.use(session.tab(input.tab)) : await session.newTab();
      const response = await tab.page.goto(input.url!, { waitUntil: 'load' }).catch((error: Error) => {
        // A URL that is a file: Chromium starts a download instead of a page.
        if (/Download is starting/i.test(error.message)) return null;
        // An https host (or a redirect to one) the proxy refused: say why, not Chromium's net:: code.
        const refusals = /ERR_TUNNEL_CONNECTION_FAILED/.test(error.message) ? session.takeNotes() : [];
        if (refusals.length > 0) throw new BrowserError(refusals.join('\n'));
        throw error;
      });
      await session.settleDownloads();
      const refused = response?.headers()['x-hearth-refused'] !== undefined;
      const status = response && response.status() >= 400 && !refused ? ` (HTTP ${response.status()})` : '';
      const result = await answer(session, session.tab(), `Opened ${input.url}${status}.`, maxChars);
      return refused ? { ...result, isError: true } : result;
    }
    case 'snapshot': {
      tab = session.use(session.tab(input.tab));
      await settle(tab);
      const result = await answer(session, tab, undefined, maxChars);
      if (screenshotNotShown)
        return {
          ...result,
          output: `${result.output}\n(No screenshot: ${screenshotNotShown}; the tree above is the page.)`,
        };
      return { ...result, images: [await screenshotOf(tab)] };
    }
    case 'click': {
      tab = session.use(session.tab(input.tab));
      await (await locateRef(tab, input.ref!)).click();
      done = `Clicked ${input.ref}.`;
      break;
    }
    case 'type': {
      tab = session.use(session.tab(input.tab));
      const field = await locateRef(tab, input.ref!);
      await field.fill(input.text!);
      if (input.submit) await field.press('Enter');
      done = `Typed into ${input.ref}${input.submit ? ' and pressed Enter' : ''}.`;
      break;
    }
    case 'select': {
      tab = session.use(session.tab(input.tab));
      const chosen = await (await locateRef(tab, input.ref!)).selectOption(input.text!);
      done = `Selected ${chosen.join(', ')} in ${input.ref}.`;
      break;
    }
    case 'wait': {
      tab = session.use(session.tab(input.tab));
      if (input.text) await tab.page.getByText(input.text).first().waitFor({ state: 'visible' });
      else await tab.page.waitForLoadState('networkidle');
      done = input.text ? `"${input.text}" is on the page.` : 'The page is idle.';
      break;
    }
    case 'extract': {
      tab = session.use(session.tab(input.tab));
      await settle(tab);
      const target = input.ref ? await locateRef(tab, input.ref) : tab.page.locator('body');
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as the person sees it (no scripts, no hidden parts)
      const text = await target.innerText();
      const cut =
        text.length > maxChars
          ? `${text.slice(0, maxChars)}\n[cut at ${maxChars} of ${text.length} characters (tools.browser.maxChars)]`
          : text;
      return withNotes(session, `${await tabLine(tab)}\n${cut}`);
    }
    default:
      throw new BrowserError(`unknown action ${String(input.action)}`);
  }
  // An action may navigate, open a tab or start a download: answer with the page as it is now.
  await settle(session.tab());
  await session.settleDownloads();
  return answer(session, session.tab(), done, maxChars);
}

async function close(deps: BrowserToolDeps, input: BrowserInput, context: ToolContext): Promise<ToolOutput> {
  const session = await deps.sessions.running(context.agentId);
  if (!session) return { output: 'The browser is not open.' };
  return session.run(async () => {
    const tab = session.tab(input.tab);
    await session.closeTab(tab);
    const left = session.listTabs();
    const rest = left.length === 0 ? 'The browser is closed.' : `Open tabs: ${left.map((open) => open.id).join(', ')}.`;
    return withNotes(session, `Closed tab ${tab.id}. ${rest}`);
  });
}

/** Lets a navigation an action started finish loading (a page that never finishes is read as it is). */
async function settle(tab: BrowserTab): Promise<void> {
  await tab.page.waitForLoadState('load').catch(() => {});
}

async function answer(
  session: BrowserSession,
  tab: BrowserTab,
  done: string | undefined,
  maxChars: number,
): Promise<ToolOutput> {
  const tree = await snapshotOf(tab, maxChars);
  const others = session.listTabs().filter((open) => open !== tab);
  const tabs = others.length > 0 ? `\nOther tabs: ${others.map((open) => open.id).join(', ')}` : '';
  return withNotes(session, `${done ? `${done}\n` : ''}${tree}${tabs}`);
}

function withNotes(session: BrowserSession, text: string): ToolOutput {
  const notes = session.takeNotes();
  return { output: notes.length > 0 ? `${text}\n\n${notes.join('\n')}` : text };
}

function describeFailure(input: BrowserInput, error: unknown, timeoutMs: number): string {
  if (error instanceof BrowserError) return error.message;
  const line = firstLine(error);
  const what = `${input.action}${input.ref ? ` ${input.ref}` : ''}${input.url ? ` ${input.url}` : ''}`;
  if (error instanceof Error && error.name === 'TimeoutError')
    return `${what} timed out after ${timeoutMs} ms (tools.browser.timeoutMs): ${line}`;
  if (/has been closed/i.test(line)) return `${what} failed: the tab or the browser was closed; open the page again`;
  if (/net::ERR_TUNNEL_CONNECTION_FAILED/.test(line))
    return `${what} refused: the address is private or loopback, which tools.browser does not allow (allowPrivateNetwork, allowHosts)`;
  return `${what} failed: ${line}`;
}
