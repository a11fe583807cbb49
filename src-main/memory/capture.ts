/**
 * Auto-capture from user messages: a message is kept when it carries a trigger (English or
 * Chinese), is not a prompt-injection payload or the agent's own output, and has a sane length.
 */
export type CaptureCategory = 'preference' | 'decision' | 'entity' | 'fact' | 'other';

const TRIGGERS: { category: CaptureCategory; pattern: RegExp }[] = [
  {
    category: 'preference',
    pattern:
      /\b(i\s+(really\s+)?(prefer|like|love|hate|dislike|enjoy|can't stand))\b|我喜欢|我偏好|我讨厌|我不喜欢|我爱/i,
  },
  { category: 'decision', pattern: /\b(decided|we'll go with|let's go with|settled on|chose)\b|决定|定了/i },
  { category: 'entity', pattern: /\+?\d[\d\s().-]{7,}\d|[\w.+-]+@[\w-]+\.[\w.-]+/ },
  { category: 'entity', pattern: /\bmy\s+[a-z][a-z' -]{1,30}\s+(is|are|was)\b|我的.{1,10}(是|叫)/i },
  {
    category: 'fact',
    pattern: /\b(remember|don't forget|note that|important|always|never)\b|记住|记下|重要|总是|从不|永远/i,
  },
];

const INJECTION = [
  /ignore (all |any )?(previous|prior|above) (instructions|prompts?)/i,
  /disregard (the |your )?(system|previous) (prompt|instructions)/i,
  /you are now (in )?(dan|developer mode|jailbreak)/i,
  /<\/?(system|assistant|tool)[^>]*>/i,
  /\bsystem prompt\b/i,
  /忽略(之前|以上|所有)的?(指令|提示)/,
];

export interface CaptureInput {
  text: string;
  /** Only the user's own words are captured; assistant and tool output never are. */
  role: 'user' | 'assistant' | 'tool';
  maxChars?: number;
}

export type CaptureDecision =
  | { capture: true; category: CaptureCategory; text: string }
  | { capture: false; reason: string };

export function classifyCapture(text: string): CaptureCategory | undefined {
  for (const trigger of TRIGGERS) if (trigger.pattern.test(text)) return refine(trigger.category, text);
  return undefined;
}

/** "remember my sister's birthday is May 3": the trigger says fact, the content says entity. */
function refine(category: CaptureCategory, text: string): CaptureCategory {
  if (category !== 'fact') return category;
  for (const trigger of TRIGGERS.slice(0, 4)) if (trigger.pattern.test(text)) return trigger.category;
  return category;
}

export function shouldCapture(input: CaptureInput): CaptureDecision {
  const text = input.text.replace(/\s+/g, ' ').trim();
  const maxChars = input.maxChars ?? 500;
  if (input.role !== 'user') return { capture: false, reason: `not the user's own words (${input.role})` };
  if (text.length <= 10) return { capture: false, reason: 'too short' };
  if (text.length >= maxChars) return { capture: false, reason: `too long (≥ ${maxChars} chars)` };
  if (INJECTION.some((pattern) => pattern.test(text)))
    return { capture: false, reason: 'looks like a prompt-injection payload' };
  if (/^\s*[/!]/.test(text)) return { capture: false, reason: 'a command, not a note' };
  const category = classifyCapture(text);
  if (!category) return { capture: false, reason: 'no capture trigger' };
  return { capture: true, category, text };
}
