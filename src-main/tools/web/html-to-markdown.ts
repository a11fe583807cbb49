import { createRequire } from 'node:module';
import type { Readability as ReadabilityClass } from '@mozilla/readability';
import type TurndownClass from 'turndown';

/** The part of the DOM used here (the main process has no DOM lib in its types). */
interface PageElement {
  setAttribute(name: string, value: string): void;
  remove(): void;
  innerHTML: string;
  href?: string;
  src?: string;
}
interface PageDocument {
  title: string;
  body: PageElement | null;
  cloneNode(deep: boolean): PageDocument;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
/** The part of jsdom used here (jsdom 26 ships no types; @types/jsdom follows newer majors). */
interface JsdomModule {
  JSDOM: new (
    html: string,
    options: { url: string; virtualConsole: unknown },
  ) => { window: { document: PageDocument; close(): void } };
  VirtualConsole: new () => unknown;
}
type ReadabilityDocument = ConstructorParameters<typeof ReadabilityClass>[0];

interface PageTools {
  JSDOM: JsdomModule['JSDOM'];
  VirtualConsole: JsdomModule['VirtualConsole'];
  Readability: typeof ReadabilityClass;
  TurndownService: typeof TurndownClass;
}
let tools: PageTools | undefined;
/**
 * Loaded on the first page, not at start: jsdom alone takes ~0.4 s to import, and none of them
 * is needed by a gateway that never fetches a page.
 */
function loadPageTools(): PageTools {
  if (!tools) {
    const require = createRequire(import.meta.url);
    const { JSDOM, VirtualConsole } = require('jsdom') as JsdomModule;
    const { Readability } = require('@mozilla/readability') as { Readability: typeof ReadabilityClass };
    tools = { JSDOM, VirtualConsole, Readability, TurndownService: require('turndown') as typeof TurndownClass };
  }
  return tools;
}

export interface ReadablePage {
  title: string;
  markdown: string;
}

/**
 * A page's readable part as markdown: Readability (Firefox's reader view) picks the article;
 * a page it cannot read (a list, a form) falls back to its body without scripts, styles and
 * navigation. Links become absolute against `url`. Scripts never run, nothing is loaded.
 */
export function htmlToMarkdown(html: string, url: string): ReadablePage {
  const { JSDOM, VirtualConsole, Readability, TurndownService } = loadPageTools();
  const dom = new JSDOM(html, { url, virtualConsole: new VirtualConsole() });
  try {
    const document = dom.window.document;
    absolutizeLinks(document);
    const title = document.title.trim();
    const article = new Readability(document.cloneNode(true) as unknown as ReadabilityDocument).parse();
    const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    turndown.remove(['script', 'style', 'noscript', 'iframe', 'template']);
    if (article?.content && (article.textContent ?? '').trim().length > 0)
      return { title: article.title?.trim() || title, markdown: tidy(turndown.turndown(article.content)) };
    for (const node of document.querySelectorAll('script, style, noscript, nav, header, footer, aside, form, svg'))
      node.remove();
    return { title, markdown: tidy(turndown.turndown(document.body?.innerHTML ?? '')) };
  } finally {
    dom.window.close();
  }
}

function absolutizeLinks(document: PageDocument): void {
  for (const link of document.querySelectorAll('a[href]')) if (link.href) link.setAttribute('href', link.href);
  for (const image of document.querySelectorAll('img[src]')) if (image.src) image.setAttribute('src', image.src);
}

function tidy(markdown: string): string {
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}
