import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import type { Logger } from '../base/logger.js';
import type { UsageLimitEvent, UsageLimitStatus } from '../protocol/methods/usage.js';
import { FailoverError } from '../providers/index.js';
import { costOf, priceOf } from './model-prices.js';
import {
  dayKeyOf,
  monthKeyOf,
  monthKeysInAnyZone,
  nextDayStart,
  nextMonthStart,
  systemTimeZone,
} from './usage-calendar.js';
import type { UsageConfig } from './usage-config.js';
import type { UsageLedger, UsageRecord } from './usage-ledger.js';
import {
  configuredLimits,
  describeLimit,
  formatTokens,
  formatUsd,
  type Spent,
  scopeKeyOf,
  scopeKeysOfCall,
  statusOf,
} from './usage-limits.js';
import type { UsageTag } from './usage-tag.js';

export interface MeteredCall {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export interface UsageMeterDeps {
  ledger: UsageLedger;
  clock: Clock;
  log: Logger;
  /** Live `usage` config: prices, caps and the time zone apply to the next call. */
  config(): UsageConfig;
}

/**
 * Counts every model call (tokens, cost) and guards the caps. `check` runs before a call
 * leaves the process and throws `budget_exhausted` once a cap is used up; a call already
 * running is never cut, its tokens are counted when it ends. Warnings (at `warnAt`) and
 * exhaustion are announced once per cap and period through `onDidCrossLimit`.
 */
export class UsageMeter implements Disposable {
  private readonly byMonth = new Map<string, UsageRecord[]>();
  /** `d:2026-12-02|agent:main` → spent. */
  private readonly counters = new Map<string, Spent>();
  private readonly announced = new Set<string>();
  private readonly didCrossLimit = new Emitter<UsageLimitEvent>();
  private readonly didRecord = new Emitter<UsageRecord>();
  readonly onDidCrossLimit = this.didCrossLimit.event;
  readonly onDidRecord = this.didRecord.event;

  private constructor(private readonly deps: UsageMeterDeps) {}

  /**
   * Caps already crossed before the restart are not announced again: the caps as configured at
   * open, noted when the meter first looks at its caps (`prime`).
   */
  private unprimed?: UsageConfig;

  /**
   * Loads this month and the last one from the ledger (a restart keeps the totals). Opening asks
   * no time zone: the first date formatting loads ICU's zone data (tens of ms at a cold start),
   * so the months are the UTC ones that could be this month or the last in any zone, and the
   * dates are worked out on the first call or query.
   */
  static async open(deps: UsageMeterDeps): Promise<UsageMeter> {
    const meter = new UsageMeter(deps);
    const now = deps.clock.now();
    meter.unprimed = deps.config();
    await meter.ensureMonths(monthKeysInAnyZone(now - 31 * 86_400_000, now));
    return meter;
  }

  timeZone(): string {
    return this.deps.config().timeZone ?? systemTimeZone();
  }

  /** Throws a FailoverError `budget_exhausted` naming the cap when one that covers this call is used up. */
  check(tag: UsageTag, target: { provider: string; model: string }): void {
    const keys = new Set(scopeKeysOfCall(tag));
    const blocking = this.limits().find((status) => status.state === 'exhausted' && keys.has(scopeKeyOf(status)));
    if (!blocking) return;
    throw new FailoverError('budget_exhausted', this.exhaustedMessage(blocking), {
      provider: target.provider,
      model: target.model,
    });
  }

  /** Records one finished (or failed mid-way) call; returns the ledger line. */
  record(call: MeteredCall, tag: UsageTag): UsageRecord {
    this.prime();
    const config = this.deps.config();
    const ts = this.deps.clock.now();
    const day = dayKeyOf(ts, this.timeZone());
    const price = priceOf(call.provider, call.model, config.prices);
    const record: UsageRecord = {
      ts,
      day,
      purpose: tag.purpose,
      agentId: tag.agentId,
      ...(tag.sessionKey ? { sessionKey: tag.sessionKey } : {}),
      ...(tag.parentSessionKey ? { parentSessionKey: tag.parentSessionKey } : {}),
      provider: call.provider,
      model: call.model,
      inputTokens: call.inputTokens,
      outputTokens: call.outputTokens,
      cachedInputTokens: call.cachedInputTokens,
      costUsd: price ? costOf(call, price) : 0,
      priced: price !== undefined,
    };
    this.add(record);
    this.deps.ledger.append(record);
    this.didRecord.fire(record);
    this.announceCrossings();
    return record;
  }

  /** Every cap with what its current period has used. */
  limits(): UsageLimitStatus[] {
    return this.statusesUnder(this.deps.config());
  }

  private statusesUnder(config: UsageConfig): UsageLimitStatus[] {
    const limits = configuredLimits(config);
    // No cap, no dates: a meter without caps formats no date before its first record.
    if (limits.length === 0) return [];
    const { day, resets } = this.currentPeriods(config.timeZone ?? systemTimeZone());
    return limits.map((limit) => {
      const period = limit.period === 'day' ? `d:${day}` : `m:${monthKeyOf(day)}`;
      const used = this.counters.get(`${period}|${scopeKeyOf(limit)}`) ?? { tokens: 0, costUsd: 0 };
      return statusOf(limit, used, config.warnAt, resets[limit.period]);
    });
  }

  /** Notes the caps that were already crossed at open (once, before the first record or re-evaluation). */
  private prime(): void {
    const atOpen = this.unprimed;
    if (!atOpen) return;
    this.unprimed = undefined;
    for (const status of this.statusesUnder(atOpen))
      if (status.state !== 'ok') this.announced.add(this.announceKey(status));
  }

  // Where today and this month end, worked out once a day: limits() runs before every call.
  private periods?: { zone: string; day: string; resets: { day: number; month: number } };

  private currentPeriods(zone: string): { day: string; resets: { day: number; month: number } } {
    const now = this.deps.clock.now();
    const day = dayKeyOf(now, zone);
    if (this.periods?.zone !== zone || this.periods.day !== day)
      this.periods = { zone, day, resets: { day: nextDayStart(now, zone), month: nextMonthStart(now, zone) } };
    return this.periods;
  }

  /** Re-reads the caps (after a config change): newly crossed lines are announced. */
  reevaluate(): void {
    this.prime();
    this.announceCrossings();
  }

  /** Records of these months, loading any not yet in memory. */
  async recordsOf(months: readonly string[]): Promise<UsageRecord[]> {
    await this.ensureMonths(months);
    return months.flatMap((month) => this.byMonth.get(month) ?? []);
  }

  flush(): Promise<void> {
    return this.deps.ledger.flush();
  }

  dispose(): void {
    this.didCrossLimit.dispose();
    this.didRecord.dispose();
  }

  private async ensureMonths(months: readonly string[]): Promise<void> {
    for (const month of new Set(months)) {
      if (this.byMonth.has(month)) continue;
      const { records, skipped } = await this.deps.ledger.readMonth(month);
      if (skipped > 0) this.deps.log.warn('usage ledger lines skipped', { month, skipped });
      // A call recorded while the file was read is already in memory: keep both.
      const live = this.byMonth.get(month) ?? [];
      this.byMonth.set(month, [...records, ...live]);
      for (const record of records) this.count(record);
    }
  }

  private add(record: UsageRecord): void {
    const month = monthKeyOf(record.day);
    const list = this.byMonth.get(month);
    if (list) list.push(record);
    else this.byMonth.set(month, [record]);
    this.count(record);
  }

  private count(record: UsageRecord): void {
    const tokens = record.inputTokens + record.outputTokens;
    for (const scope of scopeKeysOfCall(record)) {
      for (const period of [`d:${record.day}`, `m:${monthKeyOf(record.day)}`]) {
        const key = `${period}|${scope}`;
        const spent = this.counters.get(key) ?? { tokens: 0, costUsd: 0 };
        spent.tokens += tokens;
        spent.costUsd += record.costUsd;
        this.counters.set(key, spent);
      }
    }
  }

  private announceCrossings(): void {
    for (const status of this.limits()) {
      if (status.state === 'ok') continue;
      const key = this.announceKey(status);
      if (this.announced.has(key)) continue;
      this.announced.add(key);
      if (status.state === 'exhausted') this.announced.add(this.announceKey({ ...status, state: 'warning' }));
      const event: UsageLimitEvent = {
        scope: status.scope,
        ...(status.agentId ? { agentId: status.agentId } : {}),
        period: status.period,
        state: status.state,
        fraction: status.fraction,
        limit: status.limit,
        used: status.used,
        resetsAtMs: status.resetsAtMs,
        message: status.state === 'exhausted' ? this.exhaustedMessage(status) : this.warningMessage(status),
      };
      this.deps.log.warn('usage limit crossed', {
        scope: scopeKeyOf(status),
        period: status.period,
        state: status.state,
      });
      this.didCrossLimit.fire(event);
    }
  }

  private announceKey(status: UsageLimitStatus): string {
    return `${status.period}:${status.resetsAtMs}|${scopeKeyOf(status)}|${status.state}`;
  }

  private usedText(status: UsageLimitStatus): string {
    return `${formatTokens(status.used.tokens)} tokens, ${formatUsd(status.used.costUsd)}`;
  }

  private resetText(status: UsageLimitStatus): string {
    return new Date(status.resetsAtMs).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  }

  private exhaustedMessage(status: UsageLimitStatus): string {
    const background = status.scope === 'background' ? ' (chat turns are not affected)' : '';
    return (
      `${describeLimit(status)} is used up: ${this.usedText(status)}${background}. ` +
      `New model calls are refused until ${this.resetText(status)}, or raise the limit ` +
      `(hearth usage limits set, the Usage view, or usage.limits in hearth.json).`
    );
  }

  private warningMessage(status: UsageLimitStatus): string {
    return `${Math.floor(status.fraction * 100)}% of ${describeLimit(status)} is used: ${this.usedText(status)}; it resets ${this.resetText(status)}.`;
  }
}
