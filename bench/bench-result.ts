/** One measured figure; bench/run.ts prints them as a table. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The budget it is held to, printed beside it (never asserted). */
  budget?: string;
  note?: string;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
