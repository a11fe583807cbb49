import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import type { ToolContext } from '../tool.js';
import { type AddressPolicy, createAddressPolicy } from './address-policy.js';
import type { ResolveAll } from './safe-fetch.js';
import { webToolsConfigSchema } from './web-config.js';
import { createWebFetchTool } from './web-fetch-tool.js';

const article = `<!doctype html><html><head><title>Hearth notes</title><script>window.evil = 1</script></head>
<body><nav><a href="/">Home</a> · <a href="/about">About</a></nav>
<article><h1>Keeping a fire</h1>
<p>A hearth needs dry wood and air. ${'Split the logs small and stack them loosely so the flame can breathe. '.repeat(8)}</p>
<p>See <a href="/wood">the wood guide</a> for more.</p>
<pre><code>stack(logs, { loose: true })</code></pre>
</article><footer>© 2026 the footer</footer></body></html>`;

let server: Server;
let base: string;
let port: number;
const hits: string[] = [];

function route(req: IncomingMessage, res: ServerResponse): void {
  hits.push(req.url ?? '');
  const redirect = (to: string): void => {
    res.writeHead(302, { location: to }).end();
  };
  switch (req.url) {
    case '/article':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article);
      return;
    case '/moved':
      return redirect('/article');
    case '/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/');
    case '/to-intranet':
      return redirect(`http://intranet.test:${port}/article`);
    case '/to-mapped':
      return redirect(`http://[::ffff:127.0.0.1]:${port}/article`);
    case '/to-file':
      return redirect('file:///etc/passwd');
    case '/loop':
      return redirect('/loop');
    case '/declared-huge':
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
      res.write('<html>');
      setImmediate(() => res.destroy());
      return;
    case '/endless': {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const line = `${'x'.repeat(1023)}\n`;
      const pump = () => {
        while (res.write(line)) if (res.destroyed) return;
        res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
      return;
    }
    case '/gzip':
      res
        .writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'gzip' })
        .end(gzipSync('compressed hello ✓'));
      return;
    case '/image':
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const context = (): ToolContext => ({
  agentId: 'main',
  sessionKey: 'agent:main:main',
  workspaceDir: '/nonexistent',
  signal: new AbortController().signal,
  log: silentLogger,
});
/** A fake DNS: names the tests made up, each to the addresses given. */
const names: Record<string, string[]> = {
  'site.test': ['127.0.0.1'],
  'intranet.test': ['10.0.0.5'],
  'split.test': ['127.0.0.1', '192.168.1.20'],
};
const resolveAll: ResolveAll = async (host) => {
  const found = names[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
/** The tests' own loopback server is the one private address let through. */
const loopbackServerOnly = createAddressPolicy({ allowHosts: ['127.0.0.1'] });

function fetchTool(policy: AddressPolicy = loopbackServerOnly, overrides: Record<string, unknown> = {}) {
  const config = webToolsConfigSchema.parse({ maxBytes: 64 * 1024, ...overrides });
  return createWebFetchTool({ config: () => config, policy: () => policy, resolveAll });
}
const fetchUrl = (url: string, policy?: AddressPolicy, overrides?: Record<string, unknown>) =>
  fetchTool(policy, overrides).execute({ url }, context());

describe('web_fetch', () => {
  it('turns an article page into readable markdown: title, text, absolute links, no scripts or navigation', async () => {
    const { output, isError } = await fetchUrl(`${base}/article`);
    expect(isError).toBeUndefined();
    expect(output.startsWith(`# Hearth notes\n\nURL: ${base}/article\n\n`)).toBe(true);
    expect(output).toContain('Split the logs small');
    expect(output).toContain(`[the wood guide](${base}/wood)`);
    expect(output).toContain('```\nstack(logs, { loose: true })\n```');
    expect(output).not.toMatch(/window\.evil|the footer|About/);
  });

  it('follows a redirect through the same checks and says where it came from', async () => {
    const { output } = await fetchUrl(`${base}/moved`);
    expect(output).toContain(`URL: ${base}/article (redirected from ${base}/moved)`);
    expect(output).toContain('Split the logs small');
  });

  it('connects to the address it checked (a made-up name resolved by the injected DNS)', async () => {
    const { output } = await fetchUrl(`http://site.test:${port}/article`);
    expect(output).toContain('Keeping a fire');
  });

  it('refuses loopback by default: 127.0.0.1, localhost, the IPv4-mapped form, before any request', async () => {
    const before = hits.length;
    const publicOnly = createAddressPolicy({});
    for (const url of [`${base}/article`, `http://[::ffff:127.0.0.1]:${port}/article`, `http://[::1]:${port}/`]) {
      const result = await fetchUrl(url, publicOnly);
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/^refused: .* leads to .* \(loopback address\)/);
    }
    const viaName = await fetchUrl(`http://site.test:${port}/article`, publicOnly);
    expect(viaName.output).toMatch(/leads to 127\.0\.0\.1 \(loopback address\)/);
    expect(hits.length).toBe(before);
  });

  it('refuses a redirect to the cloud metadata address, to a private name, and to the mapped loopback form', async () => {
    const metadata = await fetchUrl(`${base}/to-metadata`);
    expect(metadata).toEqual({
      output:
        'refused: http://169.254.169.254/latest/meta-data/ leads to 169.254.169.254 (link-local address); private, loopback and link-local addresses are not fetched unless tools.web allows them',
      isError: true,
    });
    expect((await fetchUrl(`${base}/to-intranet`)).output).toMatch(/leads to 10\.0\.0\.5 \(private address\)/);
    expect((await fetchUrl(`${base}/to-mapped`)).output).toMatch(/leads to ::ffff:7f00:1 \(loopback address\)/);
    expect((await fetchUrl(`${base}/to-file`)).output).toBe(
      `refused: only http and https URLs can be fetched, not file: (redirected from ${base}/to-file)`,
    );
  });

  it('refuses a name when any of its addresses is private, even if another is allowed', async () => {
    const result = await fetchUrl(`http://split.test:${port}/article`);
    expect(result.output).toMatch(/leads to 192\.168\.1\.20 \(private address\)/);
  });

  it('stops redirect loops', async () => {
    expect((await fetchUrl(`${base}/loop`)).output).toBe('refused: more than 5 redirects (last to /loop)');
  });

  it('refuses a page that declares more than the cap, and cuts one that streams past it', async () => {
    expect((await fetchUrl(`${base}/declared-huge`)).output).toBe(
      `refused: ${base}/declared-huge is 52428800 bytes, over the 65536-byte cap (tools.web.maxBytes)`,
    );
    const endless = await fetchUrl(`${base}/endless`, loopbackServerOnly, { maxChars: 1_000_000 });
    expect(endless.output).toContain('[the page was cut at 65536 bytes (tools.web.maxBytes)]');
    expect(endless.output.length).toBeLessThan(70_000);
  });

  it('caps the markdown handed to the model and says how much was cut', async () => {
    const { output } = await fetchUrl(`${base}/article`, loopbackServerOnly, { maxChars: 100 });
    expect(output).toMatch(/\[\d+ of \d+ characters cut \(tools\.web\.maxChars\)\]$/);
  });

  it('reads compressed text, refuses non-text types, and reports HTTP errors as errors', async () => {
    expect((await fetchUrl(`${base}/gzip`)).output).toBe(`URL: ${base}/gzip\n\ncompressed hello ✓`);
    expect(await fetchUrl(`${base}/image`)).toEqual({
      output: `URL: ${base}/image\nnot fetched as text: the page is image/png (4 bytes); web_fetch reads HTML and text`,
      isError: true,
    });
    expect(await fetchUrl(`${base}/missing`)).toEqual({
      output: `URL: ${base}/missing\nHTTP 404\n\nno such page`,
      isError: true,
    });
  });

  it('names a bad URL and a name that does not resolve', async () => {
    expect((await fetchUrl('not a url')).output).toBe('not a URL: not a url');
    expect((await fetchUrl('http://nowhere.test/')).output).toBe('cannot resolve nowhere.test: ENOTFOUND');
  });
});
