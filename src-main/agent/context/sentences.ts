/**
 * Sentence splitting for fact and decision capture. Intl.Segmenter handles CJK and
 * punctuation; we re-join its splits after common abbreviations ("Dr. Lee") because ICU's
 * default rules break there, and a fact cut in half is worse than none.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const ABBREVIATION = /(?:^|\s)(?:dr|mr|mrs|ms|prof|st|sr|jr|vs|etc|e\.g|i\.e|approx|no|inc|ltd|co)\.\s*$/i;

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    let pending = '';
    for (const { segment } of segmenter.segment(line)) {
      pending += segment;
      if (ABBREVIATION.test(pending)) continue;
      const sentence = pending.trim();
      if (sentence.length > 0) out.push(sentence);
      pending = '';
    }
    if (pending.trim().length > 0) out.push(pending.trim());
  }
  return out;
}
