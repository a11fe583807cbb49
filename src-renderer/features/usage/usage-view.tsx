import { type FormEvent, useEffect, useState } from 'react';
import type {
  UsageDayRow,
  UsageLimitPeriod,
  UsageLimitScope,
  UsageLimitStatus,
  UsagePurposeRow,
  UsageTotals,
} from '../../../src-main/protocol/methods/usage.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { UsageMetric } from '../../stores/usage-store.js';
import { formatTime } from '../../ui/use-now.js';
import { ChatTitle } from '../chat/chat-title.js';
import { formatCost } from '../schedule/schedule-view.js';
import './usage.css';

/** One empty list for selectors: a new `[]` per render would look like a change every time. */
const noRows: never[] = [];

export function formatTokens(tokens: number): string {
  return tokens.toLocaleString('en-US');
}

function amountOf(row: UsageTotals, metric: UsageMetric): number {
  return metric === 'cost' ? row.costUsd : row.totalTokens;
}

function shown(value: number, metric: UsageMetric): string {
  return metric === 'cost' ? formatCost(value) : formatTokens(value);
}

function TotalsCard({ label, totals }: { label: string; totals: UsageTotals }) {
  const t = useT();
  return (
    <section className="card usage-total" aria-label={label}>
      <h2>{label}</h2>
      <p className="usage-total-cost">{formatCost(totals.costUsd)}</p>
      <p className="muted">
        {t('usage.tokens', { n: formatTokens(totals.totalTokens) })} · {t('usage.calls', { n: totals.calls })}
      </p>
      {totals.unpricedCalls > 0 && <p className="faint">{t('usage.unpriced', { n: totals.unpricedCalls })}</p>}
    </section>
  );
}

/** Plain SVG bars, one per day (the period's zero days included, so gaps show). */
function DayChart({ days, metric }: { days: UsageDayRow[]; metric: UsageMetric }) {
  const t = useT();
  const max = Math.max(0, ...days.map((day) => amountOf(day, metric)));
  const width = 10;
  const height = 100;
  return (
    <figure className="card usage-chart">
      <figcaption>{t('usage.byDay')}</figcaption>
      <svg
        viewBox={`0 0 ${days.length * width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('usage.byDay')}
      >
        {days.map((day, index) => {
          const value = amountOf(day, metric);
          const barHeight = max > 0 ? Math.max(value > 0 ? 1 : 0, (value / max) * height) : 0;
          return (
            <rect
              key={day.day}
              data-testid="usage-day-bar"
              x={index * width + 1}
              y={height - barHeight}
              width={width - 2}
              height={barHeight}
            >
              <title>{`${day.day}: ${shown(value, metric)}`}</title>
            </rect>
          );
        })}
      </svg>
      {days.length > 0 && (
        <div className="spread faint">
          <span>{days[0]!.day}</span>
          <span>{days[days.length - 1]!.day}</span>
        </div>
      )}
    </figure>
  );
}

function PurposeBars({ rows, metric }: { rows: UsagePurposeRow[]; metric: UsageMetric }) {
  const t = useT();
  const visible = rows.filter((row) => row.calls > 0).sort((a, b) => amountOf(b, metric) - amountOf(a, metric));
  const max = Math.max(0, ...visible.map((row) => amountOf(row, metric)));
  return (
    <section className="card usage-purposes" aria-labelledby="usage-purposes-title">
      <h2 id="usage-purposes-title">{t('usage.byPurpose')}</h2>
      {visible.length === 0 && <p className="muted">{t('usage.noUsage')}</p>}
      <ul>
        {visible.map((row) => {
          const value = amountOf(row, metric);
          return (
            <li key={row.purpose} data-testid="usage-purpose">
              <span className="usage-purpose-name">{t(`usage.purpose.${row.purpose}`)}</span>
              <span className="usage-bar" aria-hidden="true">
                <span style={{ width: `${max > 0 ? (value / max) * 100 : 0}%` }} />
              </span>
              <span className="usage-purpose-value">{shown(value, metric)}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function TopSessions() {
  const t = useT();
  const { sessions, ui } = useStores();
  const rows = useDomain('usage', (s) => s.summary?.topSessions ?? noRows);
  return (
    <section className="card usage-sessions" aria-labelledby="usage-sessions-title">
      <h2 id="usage-sessions-title">{t('usage.topSessions')}</h2>
      {rows.length === 0 ? (
        <p className="muted">{t('usage.noUsage')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t('usage.session')}</th>
              <th>{t('usage.metric.tokens')}</th>
              <th>{t('usage.metric.cost')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.sessionKey} data-testid="usage-session">
                <td>
                  <button
                    type="button"
                    className="button small ghost"
                    onClick={() => {
                      sessions.getState().select(row.sessionKey);
                      ui.getState().navigate('chat');
                    }}
                  >
                    <ChatTitle sessionKey={row.sessionKey} />
                  </button>
                  <span className="faint"> {t('usage.calls', { n: row.calls })}</span>
                </td>
                <td>{formatTokens(row.totalTokens)}</td>
                <td>{formatCost(row.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const stateBadge: Record<UsageLimitStatus['state'], string> = { ok: 'ok', warning: 'warn', exhausted: 'danger' };

function limitText(limit: UsageLimitStatus): string {
  const parts: string[] = [];
  if (limit.limit.tokens !== undefined)
    parts.push(`${formatTokens(limit.used.tokens)} / ${formatTokens(limit.limit.tokens)} tokens`);
  if (limit.limit.costUsd !== undefined)
    parts.push(`${formatCost(limit.used.costUsd)} / ${formatCost(limit.limit.costUsd)}`);
  return parts.join(' · ');
}

function LimitRow({ limit }: { limit: UsageLimitStatus }) {
  const t = useT();
  const { usage } = useStores();
  const saving = useDomain('usage', (s) => s.saving);
  const who =
    limit.scope === 'agent' ? t('usage.limit.agent', { agent: limit.agentId ?? '' }) : t(`usage.limit.${limit.scope}`);
  return (
    <li className="usage-limit" data-testid="usage-limit" aria-label={`${who} ${t(`usage.period.${limit.period}`)}`}>
      <div className="spread">
        <strong>
          {who} · {t(`usage.period.${limit.period}`)}
          {limit.isDefault && <span className="faint"> ({t('usage.default')})</span>}
        </strong>
        <span className={`badge ${stateBadge[limit.state]}`}>{t(`usage.state.${limit.state}`)}</span>
      </div>
      <span
        className="usage-bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(Math.min(1, limit.fraction) * 100)}
      >
        <span className={limit.state} style={{ width: `${Math.min(1, limit.fraction) * 100}%` }} />
      </span>
      <div className="spread">
        <span className="muted">{limitText(limit)}</span>
        <span className="faint">{t('usage.resets', { when: formatTime(limit.resetsAtMs) })}</span>
      </div>
      {!limit.isDefault && (
        <div className="row">
          <button
            type="button"
            className="button small danger"
            disabled={saving}
            onClick={() =>
              void usage.getState().removeLimit({ scope: limit.scope, agentId: limit.agentId, period: limit.period })
            }
          >
            {t('usage.removeLimit')}
          </button>
        </div>
      )}
    </li>
  );
}

function LimitForm() {
  const t = useT();
  const { usage } = useStores();
  const saving = useDomain('usage', (s) => s.saving);
  const [scope, setScope] = useState<UsageLimitScope>('global');
  const [agentId, setAgentId] = useState('');
  const [period, setPeriod] = useState<UsageLimitPeriod>('day');
  const [tokens, setTokens] = useState('');
  const [cost, setCost] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await usage.getState().setLimit({
      scope,
      period,
      ...(scope === 'agent' ? { agentId: agentId.trim() } : {}),
      ...(tokens.trim() ? { tokens: Number(tokens) } : {}),
      ...(cost.trim() ? { costUsd: Number(cost) } : {}),
    });
    if (saved) {
      setTokens('');
      setCost('');
    }
  };
  return (
    <form className="usage-limit-form" onSubmit={submit} aria-labelledby="usage-limit-form-title">
      <h3 id="usage-limit-form-title">{t('usage.setLimit')}</h3>
      <div className="usage-limit-fields">
        <label className="field">
          <span>{t('usage.scope')}</span>
          <select className="select" value={scope} onChange={(e) => setScope(e.target.value as UsageLimitScope)}>
            <option value="global">{t('usage.limit.global')}</option>
            <option value="background">{t('usage.limit.background')}</option>
            <option value="agent">{t('usage.limit.agent', { agent: '…' })}</option>
          </select>
        </label>
        {scope === 'agent' && (
          <label className="field">
            <span>{t('usage.agentId')}</span>
            <input className="input" required value={agentId} onChange={(e) => setAgentId(e.target.value)} />
          </label>
        )}
        <label className="field">
          <span>{t('usage.period')}</span>
          <select className="select" value={period} onChange={(e) => setPeriod(e.target.value as UsageLimitPeriod)}>
            <option value="day">{t('usage.period.day')}</option>
            <option value="month">{t('usage.period.month')}</option>
          </select>
        </label>
        <label className="field">
          <span>{t('usage.limitTokens')}</span>
          <input
            className="input"
            type="number"
            min={1}
            step={1}
            value={tokens}
            onChange={(e) => setTokens(e.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('usage.limitCost')}</span>
          <input
            className="input"
            type="number"
            min={0.01}
            step={0.01}
            value={cost}
            onChange={(e) => setCost(e.target.value)}
          />
        </label>
      </div>
      <div className="row usage-limit-actions">
        <button type="submit" className="button primary" disabled={saving || (!tokens.trim() && !cost.trim())}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}

function Limits() {
  const t = useT();
  const limits = useDomain('usage', (s) => s.limits?.limits ?? s.summary?.limits ?? noRows);
  return (
    <section className="card usage-limits" aria-labelledby="usage-limits-title">
      <h2 id="usage-limits-title">{t('usage.limits')}</h2>
      {limits.length === 0 && <p className="muted">{t('usage.noLimits')}</p>}
      <ul>
        {limits.map((limit) => (
          <LimitRow key={`${limit.scope}:${limit.agentId ?? ''}:${limit.period}`} limit={limit} />
        ))}
      </ul>
      <LimitForm />
    </section>
  );
}

export function UsageView() {
  const t = useT();
  const { usage } = useStores();
  // Every model call moves the meter and none tells this view: re-read on show.
  useEffect(() => {
    void usage.getState().refresh();
  }, [usage]);
  const summary = useDomain('usage', (s) => s.summary);
  const metric = useDomain('usage', (s) => s.metric);
  const error = useDomain('usage', (s) => s.error);
  return (
    <div className="view-narrow usage">
      <header className="view-header">
        <h1>{t('usage.title')}</h1>
        <div className="row">
          <label className="row">
            <span className="muted">{t('usage.metric')}</span>
            <select
              className="select"
              value={metric}
              onChange={(e) => usage.getState().setMetric(e.target.value as UsageMetric)}
            >
              <option value="cost">{t('usage.metric.cost')}</option>
              <option value="tokens">{t('usage.metric.tokens')}</option>
            </select>
          </label>
          <button type="button" className="button" onClick={() => void usage.getState().refresh()}>
            {t('common.refresh')}
          </button>
        </div>
      </header>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      {summary && (
        <>
          <div className="usage-totals">
            <TotalsCard label={t('usage.today')} totals={summary.today} />
            <TotalsCard label={t('usage.week')} totals={summary.week} />
            <TotalsCard label={t('usage.month')} totals={summary.month} />
          </div>
          <DayChart days={summary.byDay} metric={metric} />
          <PurposeBars rows={summary.byPurpose} metric={metric} />
          <TopSessions />
        </>
      )}
      <Limits />
    </div>
  );
}
