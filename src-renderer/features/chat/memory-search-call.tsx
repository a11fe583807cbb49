import { useT } from '../../app/stores-context.js';
import type { ChatMessage } from '../../stores/chat-message.js';
import { parseMemorySearchOutput } from '../memory/memory-note.js';
import { MemoryNote } from '../memory/memory-note-view.js';

function queryOf(input: unknown): string {
  const query = (input as { query?: unknown } | undefined)?.query;
  return typeof query === 'string' ? query : '';
}

/** The agent's memory_search in the conversation: what it looked for, and the notes it found, dated. */
export function MemorySearchCall({ message }: { message: ChatMessage }) {
  const t = useT();
  const query = queryOf(message.toolInput);
  const hits = message.toolOutput === undefined ? [] : parseMemorySearchOutput(message.toolOutput);
  const settled = message.toolOutput !== undefined;
  return (
    <details className="tool-call memory-search-call" data-testid="memory-search-call">
      <summary>
        <span className="tool-name">{t('chat.memorySearch', { query })}</span>
        {settled && (
          <span className="faint">
            {hits.length ? t('chat.memoryFound', { n: hits.length }) : t('chat.memoryNone')}
          </span>
        )}
        {!settled && <span className="typing" aria-hidden="true" />}
      </summary>
      {hits.length > 0 && (
        <div className="tool-detail memory-search-notes">
          {hits.map((hit) => (
            <MemoryNote key={`${hit.path}:${hit.line}`} path={hit.path} snippet={hit.snippet} query={query} />
          ))}
        </div>
      )}
    </details>
  );
}
