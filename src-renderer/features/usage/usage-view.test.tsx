import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type {
  UsageLimitStatus,
  UsagePurpose,
  UsageSummaryResult,
  UsageTotals,
} from '../../../src-main/protocol/methods/usage.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { UsageView } from './usage-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const NOW = 1_700_000_000_000;

function totals(costUsd: number, totalTokens: number, calls = 1): UsageTotals {
  return {
    calls,
    inputTokens: totalTokens,
    outputTokens: 0,
    cachedInputTokens: 0,
    totalTokens,
    costUsd,
    unpricedCalls: 0,
  };
}

const purpose = (name: UsagePurpose, costUsd: number, tokens: number, calls = 1) => ({
  purpose: name,
  ...totals(costUsd, tokens, calls),
});

const summary: UsageSummaryResult = {
  timeZone: 'UTC',
  generatedAtMs: NOW,
  today: { ...totals(0.42, 12_000, 7), unpricedCalls: 2 },
  week: totals(1.5, 50_000, 30),
  month: totals(3.25, 120_000, 80),
  byDay: [
    { day: '2026-11-30', ...totals(0, 0, 0) },
    { day: '2026-12-01', ...totals(1.08, 38_000, 23) },
    { day: '2026-12-02', ...totals(0.42, 12_000, 7) },
  ],
  byPurpose: [purpose('chat', 1.2, 40_000, 20), purpose('heartbeat', 0.01, 900_000, 2), purpose('dreaming', 0, 0, 0)],
  byAgent: [],
  byModel: [],
  topSessions: [{ sessionKey: 'agent:main:main', agentId: 'main', lastAtMs: NOW, ...totals(1.2, 40_000, 20) }],
  limits: [],
};

const dailyCap: UsageLimitStatus = {
  scope: 'global',
  period: 'day',
  limit: { costUsd: 0.5 },
  used: { tokens: 12_000, costUsd: 0.42 },
  fraction: 0.84,
  state: 'warning',
  resetsAtMs: NOW + 3_600_000,
  isDefault: false,
};

const backgroundCap: UsageLimitStatus = {
  scope: 'background',
  period: 'day',
  limit: { tokens: 200_000 },
  used: { tokens: 900, costUsd: 0.01 },
  fraction: 0.0045,
  state: 'ok',
  resetsAtMs: NOW + 3_600_000,
  isDefault: true,
};

function usageApp() {
  let limits = [backgroundCap];
  return startTestApp({
    'usage.summary': () => ({ ...summary, limits }),
    'usage.limits.get': () => ({ warnAt: 0.8, limits }),
    'usage.limits.set': (params) => {
      if (params.agentId === 'ghost')
        throw new GatewayError('INVALID_REQUEST', 'usage.limits.set: unknown agent "ghost"');
      if (params.costUsd === null && params.tokens === null) {
        limits = limits.filter((limit) => limit.isDefault);
      } else {
        limits = [{ ...dailyCap, limit: { costUsd: params.costUsd as number } }, backgroundCap];
      }
      return { warnAt: 0.8, limits };
    },
  });
}

describe('UsageView', () => {
  it('shows today, this week and this month with cost, tokens and calls, and says when calls had no price', async () => {
    app = usageApp();
    renderWithStores(app, <UsageView />);
    const today = within(await screen.findByRole('region', { name: 'Today' }));
    expect(today.getByText('$0.4200')).toBeTruthy();
    expect(today.getByText('12,000 tokens · 7 calls')).toBeTruthy();
    expect(today.getByText('2 calls without a known price')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'This week' })).getByText('$1.50')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'This month' })).getByText('$3.25')).toBeTruthy();
  });

  it('charts every day and every purpose that made calls; switching to tokens reorders by tokens', async () => {
    app = usageApp();
    renderWithStores(app, <UsageView />);
    await screen.findByRole('region', { name: 'Today' });
    const bars = screen.getAllByTestId('usage-day-bar');
    expect(bars.map((bar) => bar.textContent)).toEqual(['2026-11-30: $0', '2026-12-01: $1.08', '2026-12-02: $0.4200']);
    expect(Number(bars[0]!.getAttribute('height'))).toBe(0);
    expect(Number(bars[1]!.getAttribute('height'))).toBe(100);
    const purposes = () => screen.getAllByTestId('usage-purpose').map((row) => row.textContent);
    expect(purposes()).toEqual(['Chat$1.20', 'Heartbeat$0.0100']);
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'tokens' } });
    expect(purposes()).toEqual(['Heartbeat900,000', 'Chat40,000']);
  });

  it('lists the top sessions; one opens its transcript in Chat', async () => {
    app = usageApp();
    renderWithStores(app, <UsageView />);
    const row = within(await screen.findByTestId('usage-session'));
    expect(row.getByText('40,000')).toBeTruthy();
    fireEvent.click(row.getByRole('button', { name: 'Main' }));
    expect(app.stores.sessions.getState().activeKey).toBe('agent:main:main');
    expect(app.stores.ui.getState().view).toBe('chat');
  });

  it('sets a daily dollar limit, shows how much of it is used, and removes it again', async () => {
    app = usageApp();
    renderWithStores(app, <UsageView />);
    const limits = within(await screen.findByRole('region', { name: 'Limits' }));
    // The built-in background cap is shown, and cannot be removed (only changed).
    const background = within(limits.getByTestId('usage-limit'));
    expect(background.getByText(/Background \(heartbeat, cron, Dreaming\)/)).toBeTruthy();
    expect(background.queryByRole('button', { name: 'Remove limit' })).toBeNull();
    fireEvent.change(limits.getByLabelText('US dollars (empty: none)'), { target: { value: '0.5' } });
    fireEvent.click(limits.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.gateway.calls('usage.limits.set')).toEqual([
        { scope: 'global', period: 'day', tokens: null, costUsd: 0.5 },
      ]),
    );
    const cap = within(await screen.findByRole('listitem', { name: 'All agents per day' }));
    expect(cap.getByText('near the limit')).toBeTruthy();
    expect(cap.getByText('$0.4200 / $0.5000')).toBeTruthy();
    expect(cap.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('84');
    fireEvent.click(cap.getByRole('button', { name: 'Remove limit' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'All agents per day' })).toBeNull());
    expect(app.gateway.calls('usage.limits.set').at(-1)).toEqual({
      scope: 'global',
      period: 'day',
      tokens: null,
      costUsd: null,
    });
  });

  it('an agent limit the gateway refuses says why; a usage.limit event re-reads the meter', async () => {
    app = usageApp();
    renderWithStores(app, <UsageView />);
    const limits = within(await screen.findByRole('region', { name: 'Limits' }));
    fireEvent.change(limits.getByLabelText('Applies to'), { target: { value: 'agent' } });
    fireEvent.change(limits.getByLabelText('Agent id'), { target: { value: 'ghost' } });
    fireEvent.change(limits.getByLabelText('Tokens (empty: none)'), { target: { value: '1000' } });
    fireEvent.click(limits.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('unknown agent "ghost"');
    expect((limits.getByLabelText('Tokens (empty: none)') as HTMLInputElement).value).toBe('1000');
    const asked = app.gateway.calls('usage.summary').length;
    act(() =>
      app.gateway.emit('usage.limit', {
        ...dailyCap,
        state: 'exhausted',
        message: 'The daily limit is used up.',
      }),
    );
    await waitFor(() => expect(app.gateway.calls('usage.summary').length).toBe(asked + 1));
  });
});
