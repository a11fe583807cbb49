import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DisposableStore } from '../../base/disposable.js';
import { type BashParser, createCommandScreen, loadBashParser, TerminalManager } from '../../exec/index.js';
import { testCaller } from '../../testing/test-caller.js';
import type { CallerIdentity } from '../caller.js';
import { GatewayEventBus, type PublishedEvent } from '../event-bus.js';
import { type CallContext, MethodRegistry } from '../method-router.js';
import { registerTerminalMethods } from './terminal.js';

const caller = (scopes: string[]): CallerIdentity => testCaller(scopes);

let dir: string;
let registry: MethodRegistry;
let terminals: TerminalManager;
let events: PublishedEvent[];
let bus: GatewayEventBus;
let parser: BashParser;
beforeAll(async () => {
  parser = await loadBashParser();
});

const call = async (method: string, params: unknown, scopes = ['operator.admin']) => {
  const context: CallContext = {
    caller: caller(scopes),
    requestId: 'r1',
    signal: new AbortController().signal,
    acknowledge() {},
  };
  return registry.dispatch(method, params, context);
};

const output = (terminalId: string) =>
  events
    .filter(
      (event) =>
        event.event === 'terminal.output' && (event.payload as { terminalId: string }).terminalId === terminalId,
    )
    .map((event) => (event.payload as { data: string }).data)
    .join('');

/** Waits until the terminal printed `text` (events arrive as the PTY produces them). */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** What a test's setup registers (the bus subscription, the methods), released after it. */
let lifetimes: DisposableStore;
beforeEach(async () => {
  lifetimes = new DisposableStore();
  dir = await mkdtemp(join(tmpdir(), 'hearth-terminal-'));
  bus = new GatewayEventBus();
  events = [];
  lifetimes.add(bus.onDidPublish((event) => events.push(event)));
  terminals = new TerminalManager({
    spawnPty: pty.spawn,
    events: bus,
    shell: '/bin/bash',
    screen: createCommandScreen(parser, { home: dir }),
  });
  registry = new MethodRegistry();
  lifetimes.add(
    registerTerminalMethods(registry, {
      terminals,
      workspaceDir: () => dir,
      env: () => ({ PATH: '/usr/bin:/bin', HOME: dir, PS1: '$ ' }),
    }),
  );
});
afterEach(async () => {
  lifetimes.dispose();
  terminals.dispose();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('terminal methods', () => {
  // Issue 17: one floor on every path, terminals included.
  it('refuses to open a terminal whose command is on the hard floor', async () => {
    const answer = await call('terminal.open', { command: 'for d in ~; do rm -rf "$d"; done' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect(JSON.stringify(answer)).toContain('recursive-delete-root');
    expect(await call('terminal.list', {})).toMatchObject({ ok: true, payload: { terminals: [] } });
  });

  it('round trip: open, type, resize, close', async () => {
    const opened = await call('terminal.open', { cols: 100, rows: 30, command: 'stty size; cat' });
    expect(opened).toMatchObject({ ok: true, payload: { cols: 100, rows: 30, cwd: dir } });
    const terminalId = (opened as { payload: { terminalId: string } }).payload.terminalId;
    await waitFor(() => output(terminalId).includes('30 100'), 'the initial size');

    expect(await call('terminal.input', { terminalId, data: 'hello pty\r' })).toEqual({
      ok: true,
      payload: { ok: true },
    });
    await waitFor(() => output(terminalId).split('hello pty').length >= 3, 'the echo and cat output');

    expect(await call('terminal.resize', { terminalId, cols: 120, rows: 40 })).toEqual({
      ok: true,
      payload: { ok: true },
    });
    expect(await call('terminal.list', {})).toMatchObject({
      payload: { terminals: [{ terminalId, cols: 120, rows: 40 }] },
    });

    expect(await call('terminal.close', { terminalId })).toEqual({ ok: true, payload: { ok: true } });
    await waitFor(() => events.some((event) => event.event === 'terminal.exit'), 'terminal.exit');
    const exit = events.find((event) => event.event === 'terminal.exit');
    expect(exit?.payload).toMatchObject({ terminalId });
    const seqs = events
      .filter((event) => event.event === 'terminal.output')
      .map((event) => (event.payload as { seq: number }).seq);
    expect(seqs).toEqual(seqs.map((_seq, index) => index + 1));
    expect(await call('terminal.input', { terminalId, data: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', details: { reason: 'TERMINAL_NOT_FOUND' } },
    });
  });

  it('a resize reaches the program', async () => {
    const opened = await call('terminal.open', {
      command: 'trap "stty size" WINCH; echo ready; while :; do sleep 0.05; done',
    });
    const terminalId = (opened as { payload: { terminalId: string } }).payload.terminalId;
    await waitFor(() => output(terminalId).includes('ready'), 'ready');
    await call('terminal.resize', { terminalId, cols: 90, rows: 33 });
    await waitFor(() => output(terminalId).includes('33 90'), 'the new size');
    await call('terminal.close', { terminalId });
  });

  it('kill takes the whole process group', async () => {
    const opened = await call('terminal.open', { command: 'sleep 1000 & echo child=$!; wait' });
    const terminalId = (opened as { payload: { terminalId: string } }).payload.terminalId;
    await waitFor(() => /child=\d+/.test(output(terminalId)), 'the child pid');
    const child = Number(/child=(\d+)/.exec(output(terminalId))?.[1]);
    await call('terminal.close', { terminalId });
    await waitFor(() => events.some((event) => event.event === 'terminal.exit'), 'terminal.exit');
    await waitFor(() => {
      try {
        process.kill(child, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the background child to be gone');
  });

  it('needs operator.admin and valid params', async () => {
    expect(await call('terminal.open', {}, ['operator.write'])).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(await call('terminal.resize', { terminalId: 'x', cols: 0, rows: 10 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('cols') },
    });
  });
});
