// Control UI benchmarks (issue 7): what the user feels. Initial JS (gzip) against the
// 400 KB budget, first paint and time-to-connected from a cold gateway against the 1 s
// budget, frame times while scrolling a 10 000-message transcript, and the client/store
// costs underneath (request round trip over a loopback transport, one streamed delta
// applied to a 10 000-message session). Needs `npm run build:renderer` first for the
// browser figures; they are skipped (with a note) when dist/renderer is missing.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../e2e/chromium.js';
import { startPreviewGateway } from '../e2e/ui/preview-gateway.js';
import { GatewayClient } from '../src-main/protocol/client/gateway-client.js';
import { createLoopbackPair } from '../src-main/protocol/client/loopback-transport.js';
import { startTestHost } from '../src-main/testing/test-host.js';
import { createChatStore } from '../src-renderer/stores/chat-store.js';
import type { GatewayPort } from '../src-renderer/stores/gateway-port.js';
import { type BenchResult, percentile } from './bench-result.js';

const uiDir = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
const browserArgs = chromiumArgs;

/** The entry script and everything index.html preloads: what loads before first paint. */
async function initialJsGzip(): Promise<BenchResult[]> {
  const html = await readFile(join(uiDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let gz = 0;
  let raw = 0;
  for (const file of files) {
    const body = await readFile(join(uiDir, file));
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  return [
    {
      name: 'initial JS (gzip)',
      value: gz / 1024,
      unit: 'KB',
      budget: '≤ 400 KB',
      note: `${files.length} file(s), ${(raw / 1024).toFixed(0)} KB raw`,
    },
  ];
}

async function firstPaintCold(): Promise<BenchResult[]> {
  const started = performance.now();
  const host = await startTestHost({ controlUiDir: uiDir });
  const hostReady = performance.now() - started;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: browserArgs });
  try {
    const page = await browser.newPage();
    await page.goto(`${host.url}/?view=settings#token=${host.token}`);
    await page.locator('output.badge', { hasText: 'Connected' }).first().waitFor();
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { fcp: paint?.startTime ?? Number.NaN, connected: performance.now() };
    });
    return [
      { name: 'cold host start (startHearth, temp home)', value: hostReady, unit: 'ms' },
      { name: 'first contentful paint (cold gateway)', value: timing.fcp, unit: 'ms', budget: '≤ 1000 ms' },
      { name: 'navigation → "Connected" (cold gateway)', value: timing.connected, unit: 'ms' },
    ];
  } finally {
    await browser.close();
    await host.close();
  }
}

/**
 * Issue 22: the load event on loopback (budget 400 ms) and what goes over the wire, from a real
 * host. Cold: a fresh browser context each time (empty cache). Warm: a reload in the same context,
 * where hashed assets are served with `immutable` and never asked for again.
 */
async function loadOnLoopback(runs: number): Promise<BenchResult[]> {
  const host = await startTestHost({ controlUiDir: uiDir });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: browserArgs });
  const cold: number[] = [];
  const warm: number[] = [];
  let wire = { transferred: 0, decoded: 0, requests: 0, encodings: new Set<string>() };
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const encodings = new Set<string>();
      page.on('response', (response) => {
        if (!response.url().includes('/assets/')) return;
        encodings.add(response.headers()['content-encoding'] ?? 'identity');
      });
      await page.goto(`${host.url}/?view=chat#token=${host.token}`, { waitUntil: 'load' });
      // A string: this file is type-checked without DOM types.
      const first = (await page.evaluate(`(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const assets = performance.getEntriesByType('resource').filter((r) => r.name.includes('/assets/'));
        return {
          load: nav.loadEventEnd,
          transferred: nav.transferSize + assets.reduce((n, r) => n + r.transferSize, 0),
          decoded: nav.decodedBodySize + assets.reduce((n, r) => n + r.decodedBodySize, 0),
          requests: assets.length + 1,
        };
      })()`)) as { load: number; transferred: number; decoded: number; requests: number };
      cold.push(first.load);
      if (i === 0) wire = { ...first, encodings };
      await page.reload({ waitUntil: 'load' });
      warm.push((await page.evaluate(`performance.getEntriesByType('navigation')[0].loadEventEnd`)) as number);
      await context.close();
    }
  } finally {
    await browser.close();
    await host.close();
  }
  cold.sort((a, b) => a - b);
  warm.sort((a, b) => a - b);
  return [
    {
      name: 'load event, cold cache, loopback (p50)',
      value: percentile(cold, 50),
      unit: 'ms',
      budget: '≤ 400 ms',
      note: `${runs} fresh contexts, max ${cold[cold.length - 1]?.toFixed(0)} ms`,
    },
    { name: 'load event, reload with cache, loopback (p50)', value: percentile(warm, 50), unit: 'ms' },
    {
      name: 'Control UI over the wire, first load',
      value: wire.transferred / 1024,
      unit: 'KB',
      note: `${(wire.decoded / 1024).toFixed(0)} KB decoded, ${wire.requests} requests, assets sent as ${[...wire.encodings].join('/')}`,
    },
  ];
}

async function scroll10k(): Promise<BenchResult[]> {
  const gateway = await startPreviewGateway({ uiDir, historySize: 10_000 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: browserArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${gateway.url}/?view=chat#token=${gateway.token}`);
    await page.getByText('Answer 9999:').waitFor();
    // Scroll from the end to the top in steps of one screen per frame, timing each frame.
    // Runs in the page (a string: this file is type-checked without DOM types).
    const frames = (await page.evaluate(`(async () => {
      const scroller = document.querySelector('[data-testid="transcript"]');
      const times = [];
      let last = performance.now();
      for (let i = 0; i < 240 && scroller.scrollTop > 0; i++) {
        scroller.scrollTop -= scroller.clientHeight;
        await new Promise(requestAnimationFrame);
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return { times, rows: document.querySelectorAll('.transcript-row').length };
    })()`)) as { times: number[]; rows: number };
    const sorted = [...frames.times].sort((a, b) => a - b);
    return [
      {
        name: '10k transcript: frame time while scrolling (p50)',
        value: percentile(sorted, 50),
        unit: 'ms',
        budget: '≈16.7 ms (60 fps)',
      },
      { name: '10k transcript: frame time while scrolling (p95)', value: percentile(sorted, 95), unit: 'ms' },
      { name: '10k transcript: rows in the DOM', value: frames.rows, unit: 'rows', note: 'virtualised' },
    ];
  } finally {
    await browser.close();
    await gateway.close();
  }
}

async function clientRoundTrip(count: number): Promise<BenchResult[]> {
  const client = new GatewayClient({
    transport: () => {
      const { transport, peer } = createLoopbackPair({
        onOpen: (p) =>
          p.send({ type: 'event', event: 'connect.challenge', payload: { nonce: 'n', ts: 1, capabilities: [] } }),
      });
      peer.onFrame((frame) => {
        const payload =
          frame.method === 'connect'
            ? { type: 'hello-ok', protocol: 4, policy: { tickIntervalMs: 0 }, auth: { scopes: [] }, server: {} }
            : { ok: true };
        queueMicrotask(() => peer.send({ type: 'res', id: frame.id, ok: true, payload }));
      });
      return transport;
    },
    connectParams: () => ({
      minProtocol: 4,
      maxProtocol: 4,
      client: { id: 'test', mode: 'test', version: 'bench', platform: 'bench' },
    }),
  });
  client.start();
  await client.waitForConnected();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await client.request('health', {});
    samples.push((performance.now() - t0) * 1000);
  }
  client.dispose();
  samples.sort((a, b) => a - b);
  return [
    { name: 'client request round trip, loopback transport (p50)', value: percentile(samples, 50), unit: 'µs' },
    { name: 'client request round trip, loopback transport (p99)', value: percentile(samples, 99), unit: 'µs' },
  ];
}

async function deltaOn10k(deltas: number): Promise<BenchResult[]> {
  // A bare port (no transport) so only the store's own work is timed.
  const chat = new Map<string, (payload: Record<string, unknown>) => void>();
  const port = {
    state: { status: 'connected', attempt: 0 },
    call: async () => ({
      messages: Array.from({ length: 10_000 }, (_, i) => ({ id: `m${i}`, kind: 'user', text: `m${i}`, ts: i })),
      hasMore: false,
    }),
    on: (event: string, listener: (payload: Record<string, unknown>) => void) => {
      chat.set(event, listener);
      return { dispose() {} };
    },
    onAnyEvent: () => ({ dispose() {} }),
    onDidConnect: () => ({ dispose() {} }),
    onDidChangeState: () => ({ dispose() {} }),
  } as unknown as GatewayPort;
  const store = createChatStore(port);
  await store.getState().load('s');
  const emit = chat.get('chat')!;
  const t0 = performance.now();
  let text = '';
  for (let i = 0; i < deltas; i++) {
    text += 'word ';
    emit({
      runId: 'r',
      sessionKey: 's',
      state: 'delta',
      deltaText: 'word ',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
    });
  }
  const perDelta = ((performance.now() - t0) * 1000) / deltas;
  store.dispose();
  return [{ name: 'chat store: one streamed delta on a 10k-message session', value: perDelta, unit: 'µs' }];
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [...(await clientRoundTrip(5_000)), ...(await deltaOn10k(2_000))];
  if (!existsSync(join(uiDir, 'index.html'))) {
    results.push({
      name: 'browser figures',
      value: Number.NaN,
      unit: '',
      note: 'skipped: run `npm run build:renderer` first',
    });
    return results;
  }
  results.push(
    ...(await initialJsGzip()),
    ...(await loadOnLoopback(10)),
    ...(await firstPaintCold()),
    ...(await scroll10k()),
  );
  return results;
}
