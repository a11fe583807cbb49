import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../messages.js';
import { collectIdentifiers, findMissingIdentifiers, reinsertMissing } from './identifiers.js';

const user = (text: string): AgentMessage => ({ kind: 'user', id: 'u', ts: 0, text });

describe('collectIdentifiers', () => {
  it('finds paths, URLs, code spans, symbols, constants and meaningful numbers, not small ones', () => {
    const { identifiers } = collectIdentifiers([
      user('Open ~/notes/plan.md and src/agent/loop.ts, see https://example.com/a?b=1. Call `npm run bench`.'),
      user('parseFrame and HearthPaths broke MAX_RETRY_COUNT at port 18789 in v1.2.3; 2 plus 4.'),
    ]);
    for (const id of [
      '~/notes/plan.md',
      'src/agent/loop.ts',
      'https://example.com/a?b=1',
      'npm run bench',
      'parseFrame',
      'HearthPaths',
      'MAX_RETRY_COUNT',
      '18789',
      'v1.2.3',
    ]) {
      expect(identifiers).toContain(id);
    }
    expect(identifiers).not.toContain('2');
  });

  it('collects decision sentences, including after abbreviations', () => {
    const { decisions } = collectIdentifiers([user('Thanks Dr. Lee. We decided to ship on Friday. Nice weather.')]);
    expect(decisions).toEqual(['We decided to ship on Friday.']);
  });

  it('keeps the identifiers a previous summary promised', () => {
    const summary: AgentMessage = {
      kind: 'compaction_summary',
      id: 's',
      ts: 0,
      summary: 'short',
      replaces: [],
      identifiers: ['kept-id-123'],
    };
    expect(collectIdentifiers([summary]).identifiers).toContain('kept-id-123');
  });

  it('caps the list, dropping bare numbers before paths', () => {
    const numbers = Array.from({ length: 50 }, (_, i) => `${1000 + i}`).join(' ');
    const { identifiers } = collectIdentifiers([user(`${numbers} /etc/hearth/config.json`)], 10);
    expect(identifiers).toHaveLength(10);
    expect(identifiers[0]).toBe('/etc/hearth/config.json');
  });
});

describe('reinsertMissing', () => {
  it('appends exactly what the summary lacks', () => {
    const missing = findMissingIdentifiers('mentions a.ts only', ['a.ts', 'b.ts']);
    expect(missing).toEqual(['b.ts']);
    expect(reinsertMissing('mentions a.ts only', missing, ['We decided X.'])).toBe(
      'mentions a.ts only\n\nDecisions (kept verbatim):\n- We decided X.\n\nIdentifiers (kept verbatim): b.ts',
    );
  });
});
