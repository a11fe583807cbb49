import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type { DreamRunView } from '../../../src-main/protocol/methods/dreams.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { DreamsView } from './dreams-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const STARTED = new Date(2026, 11, 3, 3, 0).getTime();

/** A nightly run in REM: Light has read both files, REM is weighing its first of four notes. */
const midRun: DreamRunView = {
  id: 'run-1',
  mode: 'apply',
  origin: 'schedule',
  state: 'running',
  startedAt: STARTED,
  phases: [
    { name: 'light', state: 'done', done: 2, total: 2 },
    { name: 'rem', state: 'running', done: 1, total: 4 },
    { name: 'deep', state: 'waiting' },
    { name: 'write', state: 'waiting' },
  ],
};

const phaseRow = (name: string) => document.querySelector(`[data-phase="${name}"]`) as HTMLElement;

describe('DreamsView run progress', () => {
  it('after a reload mid-run shows the phases so far, follows the run live, then shows its result', async () => {
    let status: { run?: DreamRunView } = { run: midRun };
    app = startTestApp({
      'dreams.status': () => ({ enabled: true, cron: '0 3 * * *', review: false, pending: 0, ...status }),
    });
    renderWithStores(app, <DreamsView />);

    const list = await screen.findByRole('list', { name: 'Phases of the run' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.dataset.state),
    ).toEqual(['done', 'running', 'waiting', 'waiting']);
    expect(screen.getByTestId('dreams-run').textContent).toContain('Dreaming now');
    expect(screen.getByTestId('dreams-run').textContent).toContain('nightly schedule');
    expect(within(phaseRow('light')).getByText('2 of 2 daily note files read')).toBeTruthy();
    expect(within(phaseRow('rem')).getByText('Running')).toBeTruthy();
    expect(within(phaseRow('rem')).getByText('1 of 4 recalled notes weighed')).toBeTruthy();
    expect(within(phaseRow('deep')).getByText('Waiting')).toBeTruthy();
    // One run per scope at a time: the buttons wait for it.
    expect((screen.getByRole('button', { name: 'Run now' }) as HTMLButtonElement).disabled).toBe(true);

    // Another agent's run is not this view's.
    act(() =>
      app.gateway.emit('dreams.changed', {
        agentId: 'work',
        reason: 'progress',
        run: { ...midRun, id: 'other', state: 'failed', error: 'not ours' },
      }),
    );
    expect(screen.queryByText('not ours')).toBeNull();

    act(() =>
      app.gateway.emit('dreams.changed', {
        agentId: 'main',
        reason: 'progress',
        run: {
          ...midRun,
          phases: [
            { name: 'light', state: 'done', done: 2, total: 2 },
            { name: 'rem', state: 'done', done: 4, total: 4 },
            { name: 'deep', state: 'running', done: 3, total: 4 },
            { name: 'write', state: 'waiting' },
          ],
        },
      }),
    );
    expect(within(phaseRow('deep')).getByText('3 of 4 candidates checked')).toBeTruthy();

    const done: DreamRunView = {
      ...midRun,
      state: 'done',
      endedAt: STARTED + 60_000,
      phases: [
        { name: 'light', state: 'done', done: 2, total: 2 },
        { name: 'rem', state: 'done', done: 4, total: 4 },
        { name: 'deep', state: 'done', done: 4, total: 4 },
        { name: 'write', state: 'done', done: 5, total: 5 },
      ],
      result: { day: '2026-12-03', notesSeen: 9, recalls: 21, candidates: 4, promoted: 1, queued: 0 },
    };
    status = { run: done };
    act(() => app.gateway.emit('dreams.changed', { agentId: 'main', reason: 'progress', run: done }));
    const result = await screen.findByTestId('dreams-result');
    expect(result.textContent).toContain('Run of 2026-12-03: 4 candidates scored, 1 promoted into MEMORY.md.');
    expect(result.textContent).toContain('Read 9 notes and 21 recalls.');
    expect(screen.getByTestId('dreams-run').textContent).toContain('Last run finished');
    expect(within(phaseRow('write')).getByText('5 of 5 files written')).toBeTruthy();
    // The finished run changed the diary and the status: they are read again.
    await waitFor(() => expect(app.gateway.calls('dreams.status').length).toBeGreaterThanOrEqual(2));
    expect((screen.getByRole('button', { name: 'Run now' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a failed phase shows its error where it failed, and the later phases never ran', async () => {
    app = startTestApp({ 'dreams.status': () => ({ enabled: false, cron: '0 3 * * *', review: true, pending: 0 }) });
    renderWithStores(app, <DreamsView />);
    await screen.findByTestId('dreams-schedule');
    const error = 'memory/.dreams/pending.json is not valid JSON (Unexpected token); fix or delete it';
    act(() =>
      app.gateway.emit('dreams.changed', {
        agentId: 'main',
        reason: 'progress',
        run: {
          id: 'run-2',
          mode: 'review',
          origin: 'cli',
          state: 'failed',
          startedAt: STARTED,
          endedAt: STARTED + 1000,
          error,
          phases: [
            { name: 'light', state: 'done', done: 1, total: 1 },
            { name: 'rem', state: 'done', done: 2, total: 2 },
            { name: 'deep', state: 'failed', done: 0, total: 2, error },
            { name: 'write', state: 'waiting' },
          ],
        },
      }),
    );
    const deep = phaseRow('deep');
    expect(within(deep).getByText('Failed')).toBeTruthy();
    expect(within(deep).getByRole('alert').textContent).toBe(error);
    expect(screen.getByTestId('dreams-run').textContent).toContain('Last run failed');
    expect(screen.getByTestId('dreams-run').textContent).toContain('started from hearth memory promote');
    expect(within(phaseRow('write')).getByText('Waiting')).toBeTruthy();
    expect(screen.queryByTestId('dreams-result')).toBeNull();
  });

  it('a run started here shows its phases as they come, and its own answer as the result', async () => {
    app = startTestApp({
      'dreams.run': () => {
        app.gateway.emit('dreams.changed', {
          agentId: 'main',
          reason: 'progress',
          run: {
            ...midRun,
            id: 'mine',
            origin: 'app',
            mode: 'preview',
            state: 'done',
            phases: midRun.phases.map((p) => ({ ...p, state: 'done' })),
          },
        });
        return {
          day: '2026-12-03',
          applied: false,
          mode: 'preview',
          queued: [],
          notesSeen: 3,
          recalls: 7,
          reflections: [],
          truths: [],
          candidates: [],
          promoted: [],
        };
      },
    });
    renderWithStores(app, <DreamsView />);
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const result = await screen.findByTestId('dreams-result');
    await waitFor(() => expect(result.textContent).toContain('Read 3 notes and 7 recalls.'));
    expect(screen.getByTestId('dreams-run').textContent).toContain('started here');
  });

  it('shows ingest as the first phase with its count, in Chinese too', async () => {
    const withIngest: DreamRunView = {
      ...midRun,
      phases: [
        { name: 'ingest', state: 'running', done: 1, total: 3 },
        ...midRun.phases.map((p) => ({ ...p, state: 'waiting' as const, done: undefined })),
      ],
    };
    app = startTestApp({
      'dreams.status': () => ({ enabled: true, cron: '0 3 * * *', review: false, pending: 0, run: withIngest }),
    });
    renderWithStores(app, <DreamsView />);
    const list = await screen.findByRole('list', { name: 'Phases of the run' });
    expect(within(list).getAllByRole('listitem')[0]!.dataset.phase).toBe('ingest');
    expect(within(phaseRow('ingest')).getByText('Ingest: recent conversations')).toBeTruthy();
    expect(within(phaseRow('ingest')).getByText("1 of 3 conversations filed into today's notes")).toBeTruthy();
    act(() => app.stores.ui.getState().setLanguage('zh'));
    expect(within(phaseRow('ingest')).getByText('摄取：最近的对话')).toBeTruthy();
    expect(within(phaseRow('ingest')).getByText('已将 1 / 3 段对话记入今天的笔记')).toBeTruthy();
  });

  it('a stalled run says since when and which process, and clearing it asks the gateway for that run', async () => {
    const since = STARTED + 60_000;
    const stalled: DreamRunView = { ...midRun, origin: 'cli', state: 'stalled', updatedAt: since, pid: 4242 };
    let refuse = true;
    app = startTestApp({
      'dreams.status': () => ({ enabled: true, cron: '0 3 * * *', review: false, pending: 0, run: stalled }),
      'dreams.clearStalled': (params) => {
        if (refuse) throw new GatewayError('INVALID_REQUEST', 'the run is progressing (last step 3 s ago)');
        return {
          run: {
            ...stalled,
            state: 'failed',
            clearedAt: since + 1,
            endedAt: since + 1,
            error: `cleared: it stalled (pid 4242 still running) ${(params as { runId: string }).runId}`,
          },
        };
      },
    });
    renderWithStores(app, <DreamsView />);
    const note = await screen.findByTestId('dreams-stalled');
    expect(screen.getByTestId('dreams-run').dataset.state).toBe('stalled');
    expect(screen.getByTestId('dreams-run').textContent).toContain('Stalled: no progress since');
    expect(note.textContent).toContain('Process 4242 still holds this run');
    // The phase it stopped in says so; a new run waits until it is cleared (it holds the lock).
    expect(phaseRow('rem').dataset.state).toBe('stalled');
    expect(within(phaseRow('rem')).getByText('Stalled')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Run now' }) as HTMLButtonElement).disabled).toBe(true);

    // The gateway refuses (the run moved meanwhile): its reason shows, nothing is cleared.
    fireEvent.click(within(note).getByRole('button', { name: 'Clear stalled run' }));
    await screen.findByText('the run is progressing (last step 3 s ago)');
    expect(app.gateway.calls('dreams.clearStalled')[0]).toMatchObject({ runId: 'run-1' });
    expect(screen.getByTestId('dreams-run').dataset.state).toBe('stalled');

    refuse = false;
    fireEvent.click(within(screen.getByTestId('dreams-stalled')).getByRole('button', { name: 'Clear stalled run' }));
    await waitFor(() => expect(screen.getByTestId('dreams-run').dataset.state).toBe('failed'));
    expect(screen.queryByTestId('dreams-stalled')).toBeNull();
    expect(screen.getByTestId('dreams-run').textContent).toContain(
      'cleared: it stalled (pid 4242 still running) run-1',
    );
  });

  it('a stalled run that moves again is running again', async () => {
    app = startTestApp({
      'dreams.status': () => ({
        enabled: true,
        cron: '0 3 * * *',
        review: false,
        pending: 0,
        run: { ...midRun, state: 'stalled', updatedAt: STARTED, pid: 7 },
      }),
    });
    renderWithStores(app, <DreamsView />);
    await screen.findByTestId('dreams-stalled');
    act(() => app.gateway.emit('dreams.changed', { agentId: 'main', reason: 'progress', run: midRun }));
    expect(screen.getByTestId('dreams-run').dataset.state).toBe('running');
    expect(screen.queryByTestId('dreams-stalled')).toBeNull();
  });
});
