import { describe, expect, it } from 'vitest';
import { promotionAppend, promotionDiff } from './promotion-block.js';

describe('what a promotion appends to MEMORY.md', () => {
  it('keeps every byte already there: the new text only ever follows it', () => {
    for (const existing of ['', '# Memory\n', '# Memory\n\n- no newline at the end', 'x\n\n\n']) {
      const after = `${existing}${promotionAppend(existing, ['Oat milk'], '2026-11-30')}`;
      expect(after.startsWith(existing)).toBe(true);
      expect(after.endsWith('## Promoted by Dreaming — 2026-11-30\n\n- Oat milk\n')).toBe(true);
    }
    expect(promotionAppend('', ['Oat milk'], '2026-11-30')).toBe(
      '## Promoted by Dreaming — 2026-11-30\n\n- Oat milk\n',
    );
    expect(promotionAppend('- mine', ['Oat milk'], '2026-11-30')).toBe(
      '\n\n## Promoted by Dreaming — 2026-11-30\n\n- Oat milk\n',
    );
  });

  it("joins the same day's section at the end of the file; another day or a hand-written line starts a new one", () => {
    const today = '# Memory\n\n## Promoted by Dreaming — 2026-11-30\n\n- Oat milk\n';
    expect(promotionAppend(today, ['Wifi'], '2026-11-30')).toBe('- Wifi\n');
    expect(promotionAppend(today, ['Wifi'], '2026-12-01')).toBe('\n## Promoted by Dreaming — 2026-12-01\n\n- Wifi\n');
    const edited = `${today}\nSomething I wrote after it.\n`;
    expect(promotionAppend(edited, ['Wifi'], '2026-11-30')).toBe('\n## Promoted by Dreaming — 2026-11-30\n\n- Wifi\n');
  });

  it('shows the change as a unified diff with the last lines as context', () => {
    expect(promotionDiff('MEMORY.md', '', ['Oat milk'], '2026-11-30')).toBe(
      '--- MEMORY.md\n+++ MEMORY.md\n@@ -0,0 +1,3 @@\n+## Promoted by Dreaming — 2026-11-30\n+\n+- Oat milk',
    );
    expect(promotionDiff('users/ana/MEMORY.md', 'a\nb\nc\nd\n', ['Oat milk'], '2026-11-30')).toBe(
      '--- users/ana/MEMORY.md\n+++ users/ana/MEMORY.md\n@@ -2,3 +2,7 @@\n b\n c\n d\n+\n+## Promoted by Dreaming — 2026-11-30\n+\n+- Oat milk',
    );
  });
});
