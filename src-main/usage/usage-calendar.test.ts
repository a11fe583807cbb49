import { describe, expect, it } from 'vitest';
import { dayKeyOf, monthKeyOf, monthKeysInAnyZone } from './usage-calendar.js';

/** The date of an instant in a zone, formatted afresh (what dayKeyOf must always agree with). */
function reference(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

describe('dayKeyOf', () => {
  it('agrees with a fresh formatting instant by instant, across midnights and DST changes', () => {
    // Calls in time order, as the meter makes them, so its reuse of the last answer is exercised.
    const cases: [string, string][] = [
      ['Europe/Lisbon', '2026-03-28T20:00:00Z'], // clocks go forward on the 29th
      ['Europe/Lisbon', '2026-10-24T20:00:00Z'], // and back on the 25th
      ['America/New_York', '2026-11-01T00:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T10:00:00Z'], // a half-hour change
      ['UTC', '2026-12-31T22:00:00Z'],
    ];
    for (const [timeZone, start] of cases) {
      const from = Date.parse(start);
      for (let ms = from; ms < from + 30 * 3_600_000; ms += 61_111) {
        expect(dayKeyOf(ms, timeZone), `${timeZone} ${new Date(ms).toISOString()}`).toBe(reference(ms, timeZone));
      }
    }
  });

  it('answers for the zone asked, and for an earlier instant after a later one', () => {
    const at = Date.parse('2026-06-01T23:30:00Z');
    expect(dayKeyOf(at, 'UTC')).toBe('2026-06-01');
    expect(dayKeyOf(at, 'Asia/Tokyo')).toBe('2026-06-02');
    expect(dayKeyOf(at - 2 * 86_400_000, 'Asia/Tokyo')).toBe('2026-05-31');
    expect(dayKeyOf(at + 60_000, 'UTC')).toBe('2026-06-01');
  });
});

describe('monthKeysInAnyZone', () => {
  it('holds the local month of every instant in the span, in zones from 12 hours behind UTC to 14 ahead', () => {
    const zones = ['Etc/GMT+12', 'Pacific/Pago_Pago', 'America/New_York', 'UTC', 'Asia/Kolkata', 'Pacific/Kiritimati'];
    for (const now of [Date.UTC(2026, 11, 31, 23, 0, 0), Date.UTC(2027, 0, 1, 1, 0, 0), Date.UTC(2026, 2, 31, 12)]) {
      const from = now - 31 * 86_400_000;
      const keys = monthKeysInAnyZone(from, now);
      for (const zone of zones)
        for (const at of [from, now])
          expect(keys, `${zone} ${new Date(at).toISOString()}`).toContain(monthKeyOf(dayKeyOf(at, zone)));
    }
    expect(monthKeysInAnyZone(Date.UTC(2026, 11, 31, 12, 0, 0), Date.UTC(2026, 11, 31, 12, 0, 0))).toEqual([
      '2026-12',
      '2027-01',
    ]);
  });
});
