import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/render-app.js';

let app: TestApp;
afterEach(() => app?.dispose());

describe('terminal store', () => {
  it('opens a terminal, sends input and size, streams output (with scrollback for late viewers) and sees the exit', async () => {
    app = startTestApp({
      'terminal.open': () => ({ terminalId: 'term1' }),
      'terminal.input': () => ({ ok: true }),
      'terminal.resize': () => ({ ok: true }),
    });
    await app.client.waitForConnected();
    const terminal = app.stores.terminal;
    await terminal.getState().open({ cols: 100, rows: 30 });
    expect(app.gateway.calls('terminal.open')).toEqual([{ cols: 100, rows: 30 }]);
    terminal.getState().input('echo hi\r');
    terminal.getState().resize({ cols: 120, rows: 40 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(app.gateway.calls('terminal.input')).toEqual([{ terminalId: 'term1', data: 'echo hi\r' }]);
    expect(app.gateway.calls('terminal.resize')).toEqual([{ terminalId: 'term1', cols: 120, rows: 40 }]);

    const seen: string[] = [];
    terminal.getState().onOutput((data) => seen.push(data));
    app.gateway.emit('terminal.output', { terminalId: 'term1', data: 'hi\r\n' });
    app.gateway.emit('terminal.output', { terminalId: 'other', data: 'not ours' });
    expect(seen).toEqual(['hi\r\n']);
    const late: string[] = [];
    terminal.getState().onOutput((data) => late.push(data));
    expect(late).toEqual(['hi\r\n']);
    app.gateway.emit('terminal.exit', { terminalId: 'term1', exitCode: 0 });
    expect(terminal.getState()).toMatchObject({ terminalId: undefined, exitCode: 0 });
  });

  it('reports a terminal that cannot be opened', async () => {
    app = startTestApp();
    await app.client.waitForConnected();
    await app.stores.terminal.getState().open({ cols: 80, rows: 24 });
    expect(app.stores.terminal.getState().error).toBe('unknown method: terminal.open');
  });
});
