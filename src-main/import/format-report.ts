import type { ImportItemStatus, ImportReport } from './import-types.js';

const headings: Record<ImportItemStatus, string> = {
  import: 'Would import',
  imported: 'Imported',
  present: 'Already in Hearth (nothing to do)',
  conflict: 'Conflicts (Hearth keeps its own)',
  skipped: 'Skipped',
  failed: 'Failed',
};
const order: readonly ImportItemStatus[] = ['imported', 'import', 'failed', 'conflict', 'skipped', 'present'];

/** The report as a person reads it in a terminal: grouped by what happens, each with its reason. */
export function formatImportReport(report: ImportReport): string {
  const lines = [`${report.applied ? 'Import' : 'Import plan (dry run)'} from ${report.source} at ${report.from}`];
  for (const status of order) {
    const items = report.items.filter((item) => item.status === status);
    if (items.length === 0) continue;
    lines.push('', `${headings[status]} (${items.length}):`);
    for (const item of items) {
      const what = item.target === '-' ? item.origin : `${item.target}  ← ${item.origin}`;
      lines.push(`  ${item.kind.padEnd(14)} ${what}${item.reason ? `\n  ${''.padEnd(14)} ${item.reason}` : ''}`);
    }
  }
  const c = report.counts;
  lines.push(
    '',
    report.applied
      ? `${c.imported} imported, ${c.failed} failed, ${c.conflict} conflicts kept, ${c.skipped} skipped, ${c.present} already there.`
      : `${c.import} to import, ${c.conflict} conflicts, ${c.skipped} skipped, ${c.present} already there. Run again with --apply to import.`,
  );
  return `${lines.join('\n')}\n`;
}
