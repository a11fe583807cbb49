import { type FormEvent, useEffect, useState } from 'react';
import type { DeliveryOutcome } from '../../../src-main/protocol/delivery-target.js';
import type { CronJobView, CronRunView } from '../../../src-main/protocol/methods/cron.js';
import type { HeartbeatStatus } from '../../../src-main/protocol/methods/gateway.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { formatTime } from '../../ui/use-now.js';
import './schedule.css';

const statusBadge: Record<CronRunView['status'], string> = { ok: 'ok', error: 'danger', skipped: 'warn' };

/** Opens a run's session in Chat: its transcript is the run's record. */
function useOpenTranscript(): (sessionKey: string) => void {
  const { sessions, ui } = useStores();
  return (sessionKey) => {
    sessions.getState().select(sessionKey);
    ui.getState().navigate('chat');
  };
}

export function formatCost(costUsd: number | undefined): string {
  if (costUsd === undefined) return '—';
  if (costUsd === 0) return '$0';
  // Below a dollar the third and fourth decimals are what tell one run from another.
  return costUsd < 1 ? `$${costUsd.toFixed(4)}` : `$${costUsd.toFixed(2)}`;
}

/** Whether a result sent to a channel arrived; the reason it did not is the badge's title. */
function DeliveryBadge({ delivery }: { delivery: DeliveryOutcome }) {
  const t = useT();
  return (
    <span className={`badge ${delivery.status === 'sent' ? 'ok' : 'danger'} schedule-delivery`} title={delivery.detail}>
      {t(delivery.status === 'sent' ? 'schedule.deliverySent' : 'schedule.deliveryFailed', { to: delivery.to })}
    </span>
  );
}

function HeartbeatCard({ heartbeat }: { heartbeat: HeartbeatStatus }) {
  const t = useT();
  const open = useOpenTranscript();
  const last = heartbeat.lastResult;
  const sessionKey = last?.sessionKey ?? `agent:${heartbeat.agentId ?? 'main'}:heartbeat`;
  const cost = useDomain('schedule', (s) => s.costs[sessionKey]);
  return (
    <section className="card schedule-heartbeat" aria-labelledby="heartbeat-title" data-testid="heartbeat-card">
      <div className="spread">
        <h2 id="heartbeat-title">{t('schedule.heartbeat')}</h2>
        <span className={heartbeat.enabled ? 'badge ok' : 'badge'}>
          {heartbeat.enabled ? t('schedule.enabled') : t('schedule.off')}
        </span>
      </div>
      <p className="muted">
        {heartbeat.enabled
          ? t('schedule.heartbeatOn', { minutes: Math.round((heartbeat.intervalMs ?? 1_800_000) / 60_000) })
          : t('schedule.heartbeatOff')}
        {heartbeat.activeHours &&
          ` ${t('schedule.activeHours', { start: heartbeat.activeHours.start, end: heartbeat.activeHours.end })}`}
        {heartbeat.tz && ` (${heartbeat.tz})`}
      </p>
      <dl className="schedule-facts">
        <div>
          <dt>{t('schedule.lastBeat')}</dt>
          <dd>{formatTime(heartbeat.lastAt)}</dd>
        </div>
        <div>
          <dt>{t('schedule.nextBeat')}</dt>
          <dd>{heartbeat.enabled ? formatTime(heartbeat.nextAt) : '—'}</dd>
        </div>
        <div>
          <dt>{t('schedule.result')}</dt>
          <dd data-testid="heartbeat-last-result">{last ? t(`schedule.beat.${last.status}`) : '—'}</dd>
        </div>
        <div>
          <dt>{t('schedule.heartbeatCost')}</dt>
          <dd data-testid="heartbeat-cost">{formatCost(cost)}</dd>
        </div>
      </dl>
      {last && last.reasons.length > 0 && <p className="faint">{last.reasons.join(' · ')}</p>}
      {last?.summary && <blockquote className="schedule-summary">{last.summary}</blockquote>}
      {last?.delivery && <DeliveryBadge delivery={last.delivery} />}
      <div className="spread">
        <span className="faint">
          {t('schedule.beatCounts', { turns: heartbeat.turns ?? 0, quiet: heartbeat.quietBeats ?? 0 })}
        </span>
        {last?.sessionKey && (
          <button type="button" className="button small ghost" onClick={() => open(last.sessionKey!)}>
            {t('schedule.transcript')}
          </button>
        )}
      </div>
      {(heartbeat.problems ?? []).map((problem) => (
        <p key={problem} className="notice" role="alert">
          {problem}
        </p>
      ))}
    </section>
  );
}

function scheduleLabel(job: CronJobView): string {
  return job.schedule.kind === 'cron' && job.schedule.tz
    ? `${job.scheduleText} (${job.schedule.tz})`
    : job.scheduleText;
}

function JobCard({ job }: { job: CronJobView }) {
  const t = useT();
  const { schedule } = useStores();
  const busy = useDomain('schedule', (s) => s.busy.includes(job.id));
  return (
    <li className="card schedule-job" data-testid="cron-job" aria-label={job.name}>
      <div className="spread">
        <div>
          <h3>{job.name}</h3>
          <code>{scheduleLabel(job)}</code>
        </div>
        <label className="row schedule-toggle">
          <input
            type="checkbox"
            checked={job.enabled}
            disabled={busy}
            onChange={(event) => void schedule.getState().setEnabled(job.id, event.target.checked)}
          />
          {t('schedule.enabled')}
        </label>
      </div>
      <p className="schedule-message">{job.message}</p>
      <dl className="schedule-facts">
        <div>
          <dt>{t('schedule.nextRun')}</dt>
          <dd>{job.enabled && job.nextRunAtMs ? formatTime(job.nextRunAtMs) : t('schedule.never')}</dd>
        </div>
        <div>
          <dt>{t('schedule.lastRun')}</dt>
          <dd>
            {formatTime(job.lastRunAtMs)}
            {job.lastResult && (
              <>
                {' '}
                <span className={`badge ${statusBadge[job.lastResult.status]}`}>
                  {t(`schedule.status.${job.lastResult.status}`)}
                </span>
              </>
            )}
          </dd>
        </div>
        {job.delivery !== 'ui' && (
          <div>
            <dt>{t('schedule.delivery')}</dt>
            <dd>
              <code>{job.delivery}</code>
            </dd>
          </div>
        )}
      </dl>
      <div className="row">
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => void schedule.getState().runNow(job.id)}
        >
          {t('schedule.runNow')}
        </button>
        <button
          type="button"
          className="button small danger"
          disabled={busy}
          onClick={() => void schedule.getState().remove(job.id)}
        >
          {t('common.remove')}
        </button>
      </div>
    </li>
  );
}

function AddJobForm() {
  const t = useT();
  const { schedule } = useStores();
  const [name, setName] = useState('');
  const [when, setWhen] = useState('');
  const [tz, setTz] = useState('');
  const [message, setMessage] = useState('');
  const [delivery, setDelivery] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const added = await schedule.getState().add({
      name: name.trim(),
      schedule: when.trim(),
      message: message.trim(),
      ...(tz.trim() ? { tz: tz.trim() } : {}),
      ...(delivery.trim() ? { delivery: delivery.trim() } : {}),
    });
    if (added) {
      setName('');
      setWhen('');
      setTz('');
      setMessage('');
      setDelivery('');
    }
  };
  return (
    <form className="card schedule-add" onSubmit={submit} aria-labelledby="schedule-add-title">
      <h2 id="schedule-add-title">{t('schedule.add')}</h2>
      <div className="schedule-add-fields">
        <label className="field">
          <span>{t('schedule.name')}</span>
          <input className="input" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('schedule.schedule')}</span>
          <input
            className="input"
            required
            placeholder={t('schedule.scheduleHint')}
            value={when}
            onChange={(e) => setWhen(e.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('schedule.tz')}</span>
          <input className="input" placeholder="America/New_York" value={tz} onChange={(e) => setTz(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('schedule.delivery')}</span>
          <input
            className="input"
            list="schedule-delivery-choices"
            placeholder={t('schedule.deliveryHint')}
            value={delivery}
            onChange={(e) => setDelivery(e.target.value)}
          />
          <datalist id="schedule-delivery-choices">
            <option value="ui" />
            <option value="owner" />
            <option value="none" />
          </datalist>
        </label>
      </div>
      <label className="field">
        <span>{t('schedule.message')}</span>
        <textarea className="textarea" required rows={2} value={message} onChange={(e) => setMessage(e.target.value)} />
      </label>
      <div className="row schedule-add-actions">
        <button type="submit" className="button primary">
          {t('common.add')}
        </button>
      </div>
    </form>
  );
}

function RunHistory() {
  const t = useT();
  const runs = useDomain('schedule', (s) => s.runs);
  const jobs = useDomain('schedule', (s) => s.jobs);
  const costs = useDomain('schedule', (s) => s.costs);
  const open = useOpenTranscript();
  const names = new Map(jobs.map((job) => [job.id, job.name]));
  if (runs.length === 0) return <p className="empty card">{t('schedule.noRuns')}</p>;
  return (
    <div className="card schedule-runs">
      <table>
        <thead>
          <tr>
            <th>{t('schedule.job')}</th>
            <th>{t('schedule.started')}</th>
            <th>{t('schedule.trigger')}</th>
            <th>{t('schedule.result')}</th>
            <th>{t('schedule.cost')}</th>
            <th>
              <span className="sr-only">{t('schedule.transcript')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.runId} data-testid="cron-run">
              <td>{names.get(run.jobId) ?? run.jobId}</td>
              <td>{formatTime(run.startedAtMs)}</td>
              <td>{t(`schedule.trigger.${run.trigger}`)}</td>
              <td>
                <span className={`badge ${statusBadge[run.status]}`}>{t(`schedule.status.${run.status}`)}</span>{' '}
                <span className="schedule-run-summary">{run.summary}</span>
                {run.delivery && <DeliveryBadge delivery={run.delivery} />}
              </td>
              <td>{formatCost(run.sessionKey ? costs[run.sessionKey] : undefined)}</td>
              <td>
                {run.sessionKey && (
                  <button type="button" className="button small ghost" onClick={() => open(run.sessionKey!)}>
                    {t('schedule.transcript')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ScheduleView() {
  const t = useT();
  const { schedule } = useStores();
  // Runs end and beats happen while the view is closed: re-read on show.
  useEffect(() => {
    void schedule.getState().refresh();
  }, [schedule]);
  const jobs = useDomain('schedule', (s) => s.jobs);
  const cron = useDomain('schedule', (s) => s.cron);
  const heartbeat = useDomain('schedule', (s) => s.heartbeat);
  const error = useDomain('schedule', (s) => s.error);
  return (
    <div className="view-narrow schedule">
      <header className="view-header">
        <h1>{t('schedule.title')}</h1>
        <button type="button" className="button" onClick={() => void schedule.getState().refresh()}>
          {t('common.refresh')}
        </button>
      </header>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      {cron?.problem && (
        <p className="notice" role="alert">
          {cron.problem}
        </p>
      )}
      {heartbeat && <HeartbeatCard heartbeat={heartbeat} />}
      <h2>{t('schedule.jobs')}</h2>
      {cron && !cron.enabled && <p className="muted">{t('schedule.schedulerOff')}</p>}
      <ul className="schedule-jobs">
        {jobs.length === 0 && <li className="empty card">{t('schedule.noJobs')}</li>}
        {jobs.map((job) => (
          <JobCard key={job.id} job={job} />
        ))}
      </ul>
      <AddJobForm />
      <h2>{t('schedule.history')}</h2>
      <RunHistory />
    </div>
  );
}
