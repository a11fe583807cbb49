import { describe, expect, it } from 'vitest';
import { approvalReasonCodes } from '../protocol/index.js';
import { reasonSentence, reasonSentences } from './approval-reason-words.js';

// The native box and channel prompts word reasons by code (the table is Record<ApprovalReasonCode,
// string>, so a new code without Chinese does not build); this checks each has real Chinese words.
describe("approval reasons in main's own surfaces", () => {
  it('has Chinese words for every code main emits, never the English detail', () => {
    const untranslated = approvalReasonCodes.filter((code) => {
      const said = reasonSentence({ code, detail: `detail of ${code}` }, 'zh');
      return !/[\u4e00-\u9fff]/.test(said) || said.includes('detail of');
    });
    expect(untranslated).toEqual([]);
  });

  it('keeps the detail in English and for a code this build does not know, and says each sentence once', () => {
    expect(reasonSentence({ code: 'deletes', detail: 'rm deletes, with no trash' }, 'en')).toBe(
      'rm deletes, with no trash',
    );
    expect(reasonSentence({ code: 'toString', detail: 'odd code' }, 'zh')).toBe('odd code');
    expect(
      reasonSentences(
        [
          { code: 'deletes', detail: 'rm deletes, with no trash' },
          { code: 'deletes', detail: 'find -delete deletes every file it matches' },
        ],
        'zh',
      ),
    ).toEqual(['它会删除内容，且不进回收站，无法恢复']);
  });
});
