import { useDomain, useT } from '../../app/stores-context.js';
import { highlightRuns } from '../../stores/memory-store.js';
import { formatNoteDate, noteLines, noteSource } from './memory-note.js';

export interface MemoryNoteProps {
  path: string;
  snippet: string;
  /** The relevance line for the tooltip (score and its parts), already worded. */
  relevance?: string;
  /** Words to mark in the text (the search query). */
  query?: string;
}

/** One remembered note: its date or file as the heading, then what was written. */
export function MemoryNote({ path, snippet, relevance, query = '' }: MemoryNoteProps) {
  const t = useT();
  const language = useDomain('ui', (s) => s.language);
  const source = noteSource(path);
  const heading =
    source.kind === 'daily' && source.date
      ? formatNoteDate(source.date, language === 'zh' ? 'zh-CN' : 'en')
      : source.kind === 'long-term'
        ? t('memory.note.longTerm')
        : source.kind === 'about-you'
          ? t('memory.note.aboutYou')
          : source.name;
  const lines = noteLines(snippet);
  return (
    <article className="memory-note" title={relevance} data-testid="memory-note">
      <header className="memory-note-head">
        <time dateTime={source.date}>{heading}</time>
      </header>
      <ul className="memory-note-lines">
        {lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of one snippet, never reordered
          <li key={i}>
            {line.time && <span className="faint memory-note-time">{line.time}</span>}
            <span>
              {highlightRuns(line.text, query).map((run, j) =>
                // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional
                run.hit ? <mark key={j}>{run.text}</mark> : <span key={j}>{run.text}</span>,
              )}
            </span>
          </li>
        ))}
      </ul>
    </article>
  );
}
