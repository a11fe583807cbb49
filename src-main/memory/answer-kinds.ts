/**
 * What kind of value a note states and a question asks for. "standup time" asks for a time of
 * day, and the note that answers it ("Daily standup moves to 10:15") never says "time"; "how
 * much is the gym" asks for an amount the note writes as "€39 a month". Words alone cannot link
 * them, so the index adds one marker term per kind of value a unit states, and a question word
 * that asks for that kind matches the marker (below a word as written).
 *
 * Markers are spelled with brackets no tokenizer output contains, so they never meet a real word.
 */

export type AnswerKind = 'time' | 'money' | 'weight' | 'duration' | 'distance';

export const ANSWER_MARKER: Readonly<Record<AnswerKind, string>> = {
  time: '⟪time⟫',
  money: '⟪money⟫',
  weight: '⟪weight⟫',
  duration: '⟪duration⟫',
  distance: '⟪distance⟫',
};

/** A daily bullet's own time stamp (`- 09:00 [fact] …`) says when it was written, not what it states. */
const BULLET_STAMP = /^\s*(?:[-*+]\s+)?\d{1,2}:\d{2}\s+/gm;

const STATED: readonly [AnswerKind, RegExp][] = [
  ['time', /(?<![\d:.])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])|\b\d{1,2}\s?(?:am|pm)\b|\d{1,2}\s?点(?:半|\d{1,2}分)?/iu],
  [
    'money',
    /[€$£¥₹]\s?\d|\d(?:[\d,.]*\d)?\s?(?:€|eur|euros?|usd|dollars?|gbp|chf|rmb|cny|yuan|元|块|欧元|美元)(?![\p{L}])/iu,
  ],
  ['weight', /\d(?:[\d.]*\d)?\s?(?:kg|g|lbs?|pounds?|公斤|千克|斤|克)(?![\p{L}])/iu],
  [
    'duration',
    /(?<![\d:])(?:[2-9]\d|\d{3}):[0-5]\d(?![\d:])|(?<![\d:])\d{1,2}:[0-5]\d:[0-5]\d(?![\d:])|\d(?:[\d.]*\d)?\s?(?:s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|秒|分钟|小时|天|周|个月|年)(?![\p{L}])/iu,
  ],
  [
    'distance',
    /\d(?:[\d.]*\d)?\s?(?:km|m|mi|miles?|kilometers?|kilometres?|meters?|metres?|公里|千米|米)(?![\p{L}])/iu,
  ],
];

/** The kinds of value a unit of notes states (its bullet time stamps aside). */
export function answerKindsStated(text: string): AnswerKind[] {
  const body = text.replace(BULLET_STAMP, ' ');
  return STATED.filter(([, pattern]) => pattern.test(body)).map(([kind]) => kind);
}

/** The markers to add to a unit's full-text terms. */
export function answerMarkers(text: string): string[] {
  return answerKindsStated(text).map((kind) => ANSWER_MARKER[kind]);
}

/**
 * Question words (lower-case raw tokens, and Chinese phrases) and the kind of value each asks
 * for. Only words that ask for a value: "time" in "standup time" does, "weekly" does not.
 */
const ASKED_WORDS: Readonly<Record<string, AnswerKind | readonly AnswerKind[]>> = {
  // "standup time" asks for a time of day, "solve time" for how long: either can answer.
  time: ['time', 'duration'],
  when: 'time',
  "o'clock": 'time',
  oclock: 'time',
  cost: 'money',
  costs: 'money',
  price: 'money',
  prices: 'money',
  pay: 'money',
  paid: 'money',
  fee: 'money',
  fees: 'money',
  rent: 'money',
  salary: 'money',
  spend: 'money',
  spent: 'money',
  expensive: 'money',
  much: 'money',
  heavy: 'weight',
  weigh: 'weight',
  weighs: 'weight',
  weight: 'weight',
  long: 'duration',
  fast: 'duration',
  fastest: 'duration',
  duration: 'duration',
  far: 'distance',
  distance: 'distance',
};

const ASKED_CHINESE: readonly [RegExp, AnswerKind][] = [
  [/几点|什么时候|时间|何时/u, 'time'],
  [/时间/u, 'duration'],
  [/多少钱|价格|价钱|费用|花了|房租|工资|薪水|多贵/u, 'money'],
  [/多重|体重|重量/u, 'weight'],
  [/多久|多长时间|用时/u, 'duration'],
  [/多远|距离/u, 'distance'],
];

/** The kinds of value a question asks for, each with the raw token that asks (for its concept). */
export function answerKindsAsked(rawTokens: readonly string[]): { kind: AnswerKind; token: string }[] {
  const asked: { kind: AnswerKind; token: string }[] = [];
  const seen = new Set<AnswerKind>();
  const add = (kind: AnswerKind, token: string) => {
    if (seen.has(kind)) return;
    seen.add(kind);
    asked.push({ kind, token });
  };
  for (const token of rawTokens) {
    const kinds = ASKED_WORDS[token];
    for (const kind of typeof kinds === 'string' ? [kinds] : (kinds ?? [])) add(kind, token);
    for (const [pattern, chinese] of ASKED_CHINESE) if (pattern.test(token)) add(chinese, token);
  }
  return asked;
}
