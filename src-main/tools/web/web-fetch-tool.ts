import { z } from 'zod';
import type { ToolDefinition } from '../tool.js';
import type { AddressPolicy } from './address-policy.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { type ResolveAll, safeFetch, WebFetchError } from './safe-fetch.js';
import type { WebToolsConfig } from './web-config.js';

export const webFetchInputSchema = z
  .object({
    url: z.string().min(1, 'url must not be empty').describe('http(s) URL'),
  })
  .strict();
export type WebFetchInput = z.infer<typeof webFetchInputSchema>;

export interface WebFetchDeps {
  /** `tools.web`, read at each call (hot reload). */
  config(): Pick<WebToolsConfig, 'maxBytes' | 'maxChars' | 'timeoutMs' | 'maxRedirects'>;
  /** Which addresses may be reached; from `tools.web` (allowPrivateNetwork, allowHosts). */
  policy(): AddressPolicy;
  resolveAll?: ResolveAll;
}

const textTypes = /^(text\/|application\/(json|xml|javascript|x-javascript|ld\+json|rss\+xml|atom\+xml)\b)/;
const htmlTypes = /^(text\/html|application\/xhtml\+xml)\b/;

/** `web_fetch`: a page as readable markdown (or text), public addresses only unless config allows. */
export function createWebFetchTool(deps: WebFetchDeps): ToolDefinition<WebFetchInput> {
  return {
    name: 'web_fetch',
    description: 'Fetch a web page as readable markdown.',
    inputSchema: webFetchInputSchema,
    async execute(input, context) {
      const config = deps.config();
      try {
        const page = await safeFetch(input.url, {
          policy: deps.policy(),
          ...(deps.resolveAll ? { resolveAll: deps.resolveAll } : {}),
          maxBytes: config.maxBytes,
          maxRedirects: config.maxRedirects,
          timeoutMs: config.timeoutMs,
          signal: context.signal,
        });
        const type = page.contentType.split(';')[0]!.trim().toLowerCase();
        const header = [
          page.redirects.length > 0 ? `URL: ${page.url} (redirected from ${page.redirects[0]})` : `URL: ${page.url}`,
          ...(page.status >= 400 ? [`HTTP ${page.status}`] : []),
        ];
        if (type !== '' && !htmlTypes.test(type) && !textTypes.test(type))
          return {
            output: `${header.join('\n')}\nnot fetched as text: the page is ${type} (${page.body.length}${page.cut ? '+' : ''} bytes); web_fetch reads HTML and text`,
            isError: true,
          };
        const text = decode(page.body, page.contentType);
        let title = '';
        let body = text;
        if (type === '' ? /^\s*<(!doctype html|html)/i.test(text) : htmlTypes.test(type)) {
          const readable = htmlToMarkdown(text, page.url);
          title = readable.title;
          body = readable.markdown;
        }
        const notes: string[] = [];
        if (page.cut) notes.push(`[the page was cut at ${config.maxBytes} bytes (tools.web.maxBytes)]`);
        if (body.length > config.maxChars) {
          notes.push(`[${body.length - config.maxChars} of ${body.length} characters cut (tools.web.maxChars)]`);
          body = body.slice(0, config.maxChars);
        }
        const parts = [title ? `# ${title}` : '', header.join('\n'), body, ...notes].filter((part) => part !== '');
        return { output: parts.join('\n\n'), ...(page.status >= 400 ? { isError: true } : {}) };
      } catch (error) {
        if (error instanceof WebFetchError) return { output: error.message, isError: true };
        throw error;
      }
    },
  };
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
