import { useEffect, useState } from 'react';
import { useStores } from '../app/stores-context.js';

/** The stores' clock, re-read every `everyMs` while `active`: for countdowns. */
export function useNow(active: boolean, everyMs = 1000): number {
  const { now } = useStores();
  const [value, setValue] = useState(now);
  useEffect(() => {
    if (!active) return;
    setValue(now());
    const timer = setInterval(() => setValue(now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, now]);
  return value;
}

/** 90 → "1:30"; 3700 → "1:01:40". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function formatTime(ms: number | undefined, locale?: string): string {
  if (!ms) return '—';
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
