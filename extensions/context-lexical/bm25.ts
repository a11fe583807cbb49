/**
 * BM25 over a handful of documents (the turns of one session). Small enough that a library
 * would cost more than it saves; the index is rebuilt per query because transcripts change
 * every turn and scoring a few hundred turns is microseconds.
 */
const STOPWORDS = new Set(
  'a an and are as at be but by can could did do does for from had has have how i if in is it its me my of on or our please so that the their them then there these they this to was we were what when where which who why will with would you your'.split(
    ' ',
  ),
);

/** Lowercased word terms; CJK runs become single characters (no spaces to split on). */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (/\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(word)) {
      terms.push(...word);
    } else if (word.length > 1 && !STOPWORDS.has(word)) {
      terms.push(stem(word));
    }
  }
  return terms;
}

// Just enough stemming that "colours" finds "colour" and "planned" finds "plan".
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function bm25Scores(documents: readonly string[], query: string, k1 = 1.2, b = 0.75): number[] {
  const docs = documents.map(tokenize);
  const queryTerms = [...new Set(tokenize(query))];
  const n = docs.length;
  if (n === 0 || queryTerms.length === 0) return docs.map(() => 0);
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / n || 1;
  const documentFrequency = new Map<string, number>();
  for (const doc of docs)
    for (const term of new Set(doc)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return docs.map((doc) => {
    const counts = new Map<string, number>();
    for (const term of doc) counts.set(term, (counts.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of queryTerms) {
      const tf = counts.get(term) ?? 0;
      if (tf === 0) continue;
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avgLength));
    }
    return score;
  });
}
