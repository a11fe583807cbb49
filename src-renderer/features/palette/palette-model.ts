/** One thing the palette can run. */
export interface PaletteCommand {
  id: string;
  /** What the list shows, already in the person's language. */
  label: string;
  /** Other words it is found by (the English name in Chinese, the view's id…). */
  keywords?: string[];
  /** A shortcut that does the same, shown beside it. */
  hint?: string;
  run(): void;
}

function words(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The commands matching what was typed: every typed word must start a word of the label or a
 * keyword, or occur in them (Chinese has no spaces, so a substring counts). Commands whose label
 * starts with the query come first; otherwise the list keeps its order.
 */
export function filterCommands(commands: readonly PaletteCommand[], query: string): PaletteCommand[] {
  const typed = words(query);
  if (typed.length === 0) return [...commands];
  const scored: { command: PaletteCommand; rank: number; index: number }[] = [];
  commands.forEach((command, index) => {
    const haystack = [command.label, ...(command.keywords ?? [])].join(' ').toLowerCase();
    const own = words(haystack);
    const matches = typed.every((word) => own.some((w) => w.startsWith(word)) || haystack.includes(word));
    if (!matches) return;
    const rank = command.label.toLowerCase().startsWith(query.trim().toLowerCase()) ? 0 : 1;
    scored.push({ command, rank, index });
  });
  return scored.sort((a, b) => a.rank - b.rank || a.index - b.index).map((entry) => entry.command);
}

/** The next highlighted row for an arrow / Home / End key, wrapping at the ends; -1 when the list is empty. */
export function moveSelection(current: number, key: string, length: number): number {
  if (length === 0) return -1;
  if (key === 'Home') return 0;
  if (key === 'End') return length - 1;
  if (key === 'ArrowDown') return (current + 1 + length) % length;
  if (key === 'ArrowUp') return (current - 1 + length) % length;
  return Math.min(Math.max(current, 0), length - 1);
}
