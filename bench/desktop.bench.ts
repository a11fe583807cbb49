// Desktop shell benchmarks (issue 8): the IPC path a renderer frame takes (sender
// check + protocol schema + in-process connection + gateway dispatch + back), the
// preload-side cost is nil (a function call), and the redactor over a diagnostics-
// sized log tail. The packaging check's wall time is measured by running
// `node scripts/package-check.mjs` (it prints its own timing) and noted in docs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { APP_ENTRY_URL, APP_ORIGIN } from '../src-main/app/app-origin.js';
import { createIpcBridge, FRAME_CHANNEL } from '../src-main/app/ipc-bridge.js';
import { silentLogger, systemClock } from '../src-main/base/index.js';
import { redactSecrets } from '../src-main/base/secret-redaction.js';
import { DeviceRegistry } from '../src-main/gateway/auth/device-registry.js';
import { GatewayCore } from '../src-main/gateway/gateway-core.js';
import { PROTOCOL_VERSION } from '../src-main/protocol/index.js';
import type { HealthResult } from '../src-main/protocol/methods/gateway.js';
import { FakeIpcMain, FakeWebContents } from '../src-main/testing/app/fake-electron.js';
import { type BenchResult, percentile } from './bench-result.js';

async function ipcRoundTrips(count: number): Promise<BenchResult[]> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-desktop-bench-'));
  const devices = await DeviceRegistry.open(join(home, 'identity'), systemClock, silentLogger);
  const core = new GatewayCore({
    clock: systemClock,
    log: silentLogger,
    version: 'bench',
    auth: { mode: 'token', token: 'bench-token' },
    devices,
  });
  core.registry.handle('health', () => ({ ok: true }) as unknown as HealthResult);
  const ipcMain = new FakeIpcMain();
  const bridge = createIpcBridge({
    ipcMain,
    gateway: core,
    appOrigin: APP_ORIGIN,
    clock: systemClock,
    logger: silentLogger,
  });
  const window = new FakeWebContents();
  const waiting = new Map<string, () => void>();
  window.send = (_channel: string, frame: unknown) => {
    const id = (frame as { id?: string }).id;
    if (id) waiting.get(id)?.();
  };
  bridge.attach(window);
  window.emit('dom-ready');
  const call = (frame: Record<string, unknown>) =>
    new Promise<void>((resolve) => {
      waiting.set(frame.id as string, resolve);
      ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, frame);
    });
  await call({
    type: 'req',
    id: 'connect',
    method: 'connect',
    params: {
      minProtocol: PROTOCOL_VERSION,
      maxProtocol: PROTOCOL_VERSION,
      client: { id: 'hearth-control-ui', mode: 'ui', version: 'bench', platform: 'linux' },
      role: 'operator',
      scopes: ['operator.read'],
    },
  });
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call({ type: 'req', id: `h${i}`, method: 'health', params: {} });
    samples.push(performance.now() - started);
  }
  bridge.dispose();
  core.dispose();
  await rm(home, { recursive: true, force: true });
  samples.sort((a, b) => a - b);
  return [
    {
      name: `IPC bridge round trip (health, ${count} sequential) p50`,
      value: percentile(samples, 50) * 1000,
      unit: 'µs',
    },
    { name: 'IPC bridge round trip p99', value: percentile(samples, 99) * 1000, unit: 'µs', budget: '< 2000 µs' },
  ];
}

function redaction(): BenchResult[] {
  const line = JSON.stringify({
    level: 30,
    time: '2026-11-30T12:00:00.000Z',
    msg: 'provider call finished',
    model: 'gpt-4o',
    tokens: 1200,
    authorization: 'Bearer abcdefghijklmnop',
    note: 'key sk-proj-abcdefghijklmnopqrstuvwx used',
  });
  const text = `${line}\n`.repeat(Math.ceil((64 * 1024) / (line.length + 1)));
  const runs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    redactSecrets(text, ['gateway-token-0123456789']);
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  return [
    {
      name: 'redact a 64 KiB log tail (Copy diagnostics) p50',
      value: percentile(runs, 50),
      unit: 'ms',
      budget: '< 50 ms',
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  return [...(await ipcRoundTrips(2000)), ...redaction()];
}
