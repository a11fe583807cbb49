import { z } from 'zod';
import type { ToolDefinition } from '../tool.js';
import { BRAVE_DEFAULT_SECRET, type WebSearchConfig } from './web-config.js';

/** One search hit as the model gets it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A search engine behind `web_search`. Must throw `WebSearchError` with a clear message on failure. */
export interface SearchProvider {
  name: string;
  search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]>;
}

export class WebSearchError extends Error {}

export const webSearchInputSchema = z.object({
  query: z.string().min(1, 'query must not be empty'),
  count: z.number().int().min(1).max(20).optional(),
});
export type WebSearchInput = z.infer<typeof webSearchInputSchema>;

/** Brave Search API: GET {baseUrl}/res/v1/web/search?q=…&count=…, key in X-Subscription-Token. */
export function braveSearchProvider(options: {
  baseUrl?: string;
  apiKey(): Promise<string | undefined>;
}): SearchProvider {
  const base = (options.baseUrl ?? 'https://api.search.brave.com').replace(/\/$/, '');
  return {
    name: 'brave',
    async search(query, count, signal) {
      const key = await options.apiKey();
      if (!key) throw new WebSearchError('web_search: no Brave Search API key in the secret store');
      const url = `${base}/res/v1/web/search?q=${encodeURIComponent(query)}&count=${count}`;
      const body = (await getJson(
        url,
        { accept: 'application/json', 'x-subscription-token': key },
        signal,
        'Brave Search',
      )) as {
        web?: { results?: { title?: string; url?: string; description?: string }[] };
      };
      return (body.web?.results ?? []).map((hit) => ({
        title: hit.title ?? '',
        url: hit.url ?? '',
        snippet: hit.description ?? '',
      }));
    },
  };
}

/** SearXNG: GET {baseUrl}/search?q=…&format=json (the instance must allow the json format). */
export function searxngSearchProvider(options: {
  baseUrl: string;
  apiKey?(): Promise<string | undefined>;
}): SearchProvider {
  const base = options.baseUrl.replace(/\/$/, '');
  return {
    name: 'searxng',
    async search(query, count, signal) {
      const key = await options.apiKey?.();
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      };
      const body = (await getJson(
        `${base}/search?q=${encodeURIComponent(query)}&format=json`,
        headers,
        signal,
        'SearXNG',
      )) as {
        results?: { title?: string; url?: string; content?: string }[];
      };
      return (body.results ?? [])
        .slice(0, count)
        .map((hit) => ({ title: hit.title ?? '', url: hit.url ?? '', snippet: hit.content ?? '' }));
    },
  };
}

/** Where the search key lives: the secret store, by shape (e.g. `keychain`, `encrypted-file` as `backend`). */
export interface SearchSecretSource {
  readonly backend?: string;
  get(name: string): Promise<string | undefined>;
}

/**
 * The provider `tools.web.search` names, its key read from the secret store at each search (so
 * a key stored while the gateway runs is used at once). A key the store lacks is an error that
 * names the entry and how to store it, not a request sent without one.
 */
export function configuredSearchProvider(search: WebSearchConfig, secrets: SearchSecretSource): SearchProvider {
  const who = search.provider === 'brave' ? 'Brave Search' : 'SearXNG';
  const secretName = search.apiKeySecret ?? (search.provider === 'brave' ? BRAVE_DEFAULT_SECRET : undefined);
  const apiKey = secretName
    ? async () => {
        const value = await secrets.get(secretName);
        if (value) return value;
        const profile = /^auth-profile:(.+)$/.exec(secretName)?.[1];
        const how = profile
          ? `store the key with: hearth auth set ${profile} --provider ${search.provider} (the key on stdin)`
          : `store the key in the secret store under that name, or set apiKeySecret to "auth-profile:<id>" and run: hearth auth set <id> --provider ${search.provider} (the key on stdin)`;
        throw new WebSearchError(
          `web_search: the ${who} API key is not in the secret store${secrets.backend ? ` (${secrets.backend})` : ''}: tools.web.search.apiKeySecret is "${secretName}"${search.apiKeySecret ? '' : ' (the default)'}, and the store has no such entry; ${how}`,
        );
      }
    : undefined;
  if (search.provider === 'brave')
    return braveSearchProvider({ baseUrl: search.url, apiKey: apiKey ?? (async () => undefined) });
  if (!search.url) throw new WebSearchError('web_search: tools.web.search.url is required for SearXNG');
  return searxngSearchProvider({ baseUrl: search.url, ...(apiKey ? { apiKey } : {}) });
}

async function getJson(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  who: string,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    throw new WebSearchError(`web_search: ${who} could not be reached: ${(error as Error).message}`);
  }
  if (response.status === 429) {
    const after = response.headers.get('retry-after');
    throw new WebSearchError(
      `web_search: ${who} says too many requests (HTTP 429)${after ? `; retry after ${after} s` : ''}`,
    );
  }
  if (response.status === 401 || response.status === 403)
    throw new WebSearchError(`web_search: ${who} refused the API key (HTTP ${response.status})`);
  if (!response.ok) throw new WebSearchError(`web_search: ${who} answered HTTP ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new WebSearchError(`web_search: ${who} did not answer JSON (is format=json enabled?)`);
  }
}

/** `web_search`: a compact list (title, URL, snippet) from the configured provider. */
export function createWebSearchTool(deps: { provider(): SearchProvider }): ToolDefinition<WebSearchInput> {
  return {
    name: 'web_search',
    description: 'Search the web; returns titles, URLs and snippets.',
    inputSchema: webSearchInputSchema,
    async execute(input, context) {
      try {
        const provider = deps.provider();
        const hits = await provider.search(input.query, input.count ?? 8, context.signal);
        if (hits.length === 0) return { output: `No results for "${input.query}" (${provider.name}).` };
        return {
          output: hits
            .map(
              (hit, index) =>
                `${index + 1}. ${hit.title}\n   ${hit.url}${hit.snippet ? `\n   ${hit.snippet.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`,
            )
            .join('\n'),
        };
      } catch (error) {
        if (error instanceof WebSearchError) return { output: error.message, isError: true };
        throw error;
      }
    },
  };
}
