import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type { CronJobView, CronRunView } from '../../../src-main/protocol/methods/cron.js';
import type { HeartbeatStatus } from '../../../src-main/protocol/methods/gateway.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { formatTime } from '../../ui/use-now.js';
import { ScheduleView } from './schedule-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const NOW = 1_700_000_000_000;
const page = { offset: 0, limit: 50, hasMore: false, nextOffset: null };

const inbox: CronJobView = {
  id: 'j1',
  name: 'Inbox digest',
  scheduleText: '0 8 * * 1-5',
  schedule: { kind: 'cron', expr: '0 8 * * 1-5', tz: 'America/New_York' },
  agentId: 'main',
  message: 'summarise my inbox',
  session: 'isolated',
  delivery: 'ui',
  enabled: true,
  createdAtMs: NOW - 86_400_000,
  updatedAtMs: NOW - 86_400_000,
  nextRunAtMs: NOW + 3_600_000,
  lastRunAtMs: NOW - 3_600_000,
  lastResult: { status: 'ok', summary: 'Three new mails, none urgent.' },
};

const run: CronRunView = {
  runId: 'r1',
  jobId: 'j1',
  sessionKey: 'agent:main:cron:j1.r1',
  scheduledAtMs: NOW - 3_600_000,
  startedAtMs: NOW - 3_600_000,
  endedAtMs: NOW - 3_590_000,
  status: 'ok',
  summary: 'Three new mails, none urgent.',
  trigger: 'schedule',
};

const heartbeat: HeartbeatStatus = {
  enabled: true,
  intervalMs: 30 * 60_000,
  lastAt: NOW - 60_000,
  nextAt: NOW + 29 * 60_000,
  turns: 1,
  quietBeats: 47,
  agentId: 'main',
  lastResult: {
    status: 'delivered',
    atMs: NOW - 60_000,
    reasons: ['due: Check the calendar for tomorrow'],
    summary: 'Two meetings tomorrow, the first at 9.',
    sessionKey: 'agent:main:heartbeat',
  },
  problems: [],
};

function scheduleApp(options: { jobs?: CronJobView[]; heartbeat?: HeartbeatStatus } = {}) {
  let jobs = options.jobs ?? [inbox];
  return startTestApp({
    'cron.list': () => ({ jobs, total: jobs.length, ...page, limit: 500, snapshotRevision: `r${jobs.length}` }),
    'cron.runs': () => ({ runs: [run], entries: [run], total: 1, ...page }),
    'cron.status': () => ({ enabled: true, catchUp: 'once', jobs: jobs.length, nextWakeAtMs: null, running: [] }),
    status: () => ({ heartbeat: options.heartbeat ?? heartbeat }),
    'usage.summary': () => ({
      topSessions: [
        { sessionKey: 'agent:main:cron:j1.r1', agentId: 'main', costUsd: 0.0123, lastAtMs: NOW },
        { sessionKey: 'agent:main:heartbeat', agentId: 'main', costUsd: 0.0042, lastAtMs: NOW },
      ],
    }),
    'cron.update': (params) => {
      const patch = params.patch as { enabled: boolean };
      jobs = jobs.map((job) => (job.id === params.id ? { ...job, enabled: patch.enabled } : job));
      return { job: jobs[0] };
    },
    'cron.run': () => ({ runId: 'r2', sessionKey: 'agent:main:cron:j1.r2' }),
    'cron.remove': (params) => {
      jobs = jobs.filter((job) => job.id !== params.id);
      return { job: inbox };
    },
    'cron.add': (params) => {
      if (params.schedule === 'every 10')
        throw new GatewayError('INVALID_REQUEST', 'schedule "every 10": an interval is a number and a unit');
      const job: CronJobView = {
        ...inbox,
        id: 'j2',
        name: String(params.name),
        scheduleText: String(params.schedule),
        schedule: { kind: 'every', everyMs: 3_600_000, anchorMs: NOW },
      };
      jobs = [...jobs, job];
      return { job };
    },
  });
}

describe('ScheduleView', () => {
  it('shows each job with its schedule, time zone, next run and last result, and the run history with cost', async () => {
    app = scheduleApp();
    renderWithStores(app, <ScheduleView />);
    const job = within(await screen.findByTestId('cron-job'));
    expect(job.getByText('Inbox digest')).toBeTruthy();
    expect(job.getByText('0 8 * * 1-5 (America/New_York)')).toBeTruthy();
    expect(job.getByText(formatTime(NOW + 3_600_000))).toBeTruthy();
    expect(job.getByText('ok')).toBeTruthy();
    const history = within(await screen.findByTestId('cron-run'));
    expect(history.getByText('Inbox digest')).toBeTruthy();
    expect(history.getByText('scheduled')).toBeTruthy();
    expect(history.getByText('Three new mails, none urgent.')).toBeTruthy();
    expect(await history.findByText('$0.0123')).toBeTruthy();
  });

  it('switches a job off, runs one now and removes one, each through the gateway', async () => {
    app = scheduleApp();
    renderWithStores(app, <ScheduleView />);
    const job = within(await screen.findByTestId('cron-job'));
    fireEvent.click(job.getByLabelText('Enabled'));
    await waitFor(() => expect(app.gateway.calls('cron.update')).toEqual([{ id: 'j1', patch: { enabled: false } }]));
    await waitFor(() => expect((job.getByLabelText('Enabled') as HTMLInputElement).checked).toBe(false));
    expect(job.getByText('not scheduled')).toBeTruthy();
    fireEvent.click(job.getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(app.gateway.calls('cron.run')).toEqual([{ id: 'j1' }]));
    await waitFor(() =>
      expect((job.getByRole('button', { name: 'Remove' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(job.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(/No scheduled jobs yet/)).toBeTruthy();
  });

  it('adds a job; a schedule the gateway refuses is shown with its reason and the form keeps the input', async () => {
    app = scheduleApp({ jobs: [] });
    renderWithStores(app, <ScheduleView />);
    const form = within(await screen.findByRole('form', { name: 'New job' }));
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Stretch' } });
    fireEvent.change(form.getByLabelText('Schedule'), { target: { value: 'every 10' } });
    fireEvent.change(form.getByLabelText('What the agent is told'), { target: { value: 'remind me to stretch' } });
    fireEvent.click(form.getByRole('button', { name: 'Add' }));
    expect((await screen.findByRole('alert')).textContent).toContain('an interval is a number and a unit');
    expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe('Stretch');
    fireEvent.change(form.getByLabelText('Schedule'), { target: { value: 'every 1h' } });
    fireEvent.click(form.getByRole('button', { name: 'Add' }));
    const job = within(await screen.findByTestId('cron-job'));
    expect(job.getByText('every 1h')).toBeTruthy();
    expect(app.gateway.calls('cron.add').at(-1)).toEqual({
      name: 'Stretch',
      schedule: 'every 1h',
      message: 'remind me to stretch',
    });
    // The new job can reach the list (its change event) before cron.add's answer clears the form.
    await waitFor(() => expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe(''));
  });

  it('sends a job to a channel chat, shows where it delivers, and says when a delivery did not arrive', async () => {
    const failed: CronRunView = {
      ...run,
      delivery: { to: 'telegram:42', status: 'failed', detail: 'telegram:42: that user is not paired' },
    };
    app = scheduleApp({ jobs: [{ ...inbox, delivery: 'telegram:42' }] });
    app.gateway.handle('cron.runs', () => ({ runs: [failed], entries: [failed], total: 1, ...page }));
    renderWithStores(app, <ScheduleView />);
    const job = within(await screen.findByTestId('cron-job'));
    expect(job.getByText('Deliver to')).toBeTruthy();
    expect(job.getByText('telegram:42')).toBeTruthy();
    const history = within(await screen.findByTestId('cron-run'));
    const badge = history.getByText('not sent to telegram:42');
    expect(badge.getAttribute('title')).toContain('not paired');

    const form = within(screen.getByRole('form', { name: 'New job' }));
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Plants' } });
    fireEvent.change(form.getByLabelText('Schedule'), { target: { value: 'every 1d' } });
    fireEvent.change(form.getByLabelText('What the agent is told'), { target: { value: 'water them' } });
    fireEvent.change(form.getByLabelText('Deliver to'), { target: { value: 'owner' } });
    fireEvent.click(form.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(app.gateway.calls('cron.add').at(-1)).toEqual({
        name: 'Plants',
        schedule: 'every 1d',
        message: 'water them',
        delivery: 'owner',
      }),
    );
  });

  it("shows the heartbeat's real state and its last report; the transcript link opens the session in Chat", async () => {
    app = scheduleApp();
    renderWithStores(app, <ScheduleView />);
    const card = within(await screen.findByTestId('heartbeat-card'));
    expect(card.getByText(/Every 30 min/)).toBeTruthy();
    expect(card.getByText(formatTime(NOW + 29 * 60_000))).toBeTruthy();
    expect(card.getByTestId('heartbeat-last-result').textContent).toBe('Reported');
    expect(card.getByText('Two meetings tomorrow, the first at 9.')).toBeTruthy();
    expect(card.getByText('1 model turns, 47 quiet beats since start')).toBeTruthy();
    // What the heartbeat's own session cost, from the usage meter.
    await waitFor(() => expect(card.getByTestId('heartbeat-cost').textContent).toBe('$0.0042'));
    fireEvent.click(card.getByRole('button', { name: 'Transcript' }));
    expect(app.stores.sessions.getState().activeKey).toBe('agent:main:heartbeat');
    expect(app.stores.ui.getState().view).toBe('chat');
  });

  it('a quiet beat moves the last and next beat without asking the gateway again', async () => {
    app = scheduleApp();
    renderWithStores(app, <ScheduleView />);
    const card = within(await screen.findByTestId('heartbeat-card'));
    await waitFor(() => expect(app.gateway.calls('status').length).toBeGreaterThan(0));
    const asked = app.gateway.calls('status').length;
    const at = NOW + 29 * 60_000;
    act(() => app.gateway.emit('heartbeat', { status: 'quiet', atMs: at, reasons: [], agentId: 'main' }));
    expect(card.getByTestId('heartbeat-last-result').textContent).toBe('Nothing due: no model call');
    expect(card.getByText(formatTime(at + 30 * 60_000))).toBeTruthy();
    expect(card.getByText('1 model turns, 48 quiet beats since start')).toBeTruthy();
    expect(app.gateway.calls('status')).toHaveLength(asked);
  });

  it('says when the heartbeat is off and names a checklist line it cannot read', async () => {
    app = scheduleApp({
      heartbeat: {
        enabled: false,
        intervalMs: 1_800_000,
        problems: ['HEARTBEAT.md line 3: schedule "every fortnight"'],
      },
    });
    renderWithStores(app, <ScheduleView />);
    const card = within(await screen.findByTestId('heartbeat-card'));
    expect(card.getByText(/The heartbeat is off/)).toBeTruthy();
    expect(card.getByRole('alert').textContent).toContain('HEARTBEAT.md line 3');
  });
});
