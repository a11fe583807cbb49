// Loopback servers speaking the Brave Search API and SearXNG JSON shapes, for web_search tests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSearchServer {
  baseUrl: string;
  /** Requests seen: path with query, and headers. */
  requests: { url: string; headers: Record<string, string | string[] | undefined> }[];
  /** The next answer's status (default 200). */
  nextStatus?: number;
  close(): Promise<void>;
}

export async function startFakeSearchServer(kind: 'brave' | 'searxng', key?: string): Promise<FakeSearchServer> {
  const requests: FakeSearchServer['requests'] = [];
  const state = { nextStatus: undefined as number | undefined };
  const server: Server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    const url = new URL(request.url ?? '/', 'http://x');
    const status = state.nextStatus ?? 200;
    state.nextStatus = undefined;
    if (status !== 200) {
      response.writeHead(status, status === 429 ? { 'retry-after': '2' } : {}).end('{}');
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    if (kind === 'brave') {
      if (url.pathname !== '/res/v1/web/search') return void response.writeHead(404).end();
      if (request.headers['x-subscription-token'] !== key) return void response.writeHead(401).end('{}');
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          type: 'search',
          web: {
            type: 'search',
            results: [
              { title: `Brave: ${q}`, url: 'https://example.com/a', description: 'first <strong>hit</strong>' },
              { title: 'Second', url: 'https://example.com/b', description: 'second hit' },
            ],
          },
        }),
      );
    } else {
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json')
        return void response.writeHead(403).end('<html>');
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          query: q,
          number_of_results: 2,
          results: [
            { title: `SearXNG: ${q}`, url: 'https://example.org/x', content: 'searx hit', engine: 'duckduckgo' },
            { title: 'Other', url: 'https://example.org/y', content: '' },
          ],
        }),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get nextStatus() {
      return state.nextStatus;
    },
    set nextStatus(value) {
      state.nextStatus = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
