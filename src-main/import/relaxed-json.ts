/**
 * OpenClaw's config is JSON5 in practice (comments, trailing commas). Hearth adds no JSON5
 * dependency for one file: strict JSON first, then the same text with comments and trailing
 * commas removed (outside strings). Anything else JSON5 allows (unquoted keys) is reported.
 */
export function parseRelaxedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (strictError) {
    try {
      return JSON.parse(stripJsonExtras(text));
    } catch {
      throw strictError;
    }
  }
}

function stripJsonExtras(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"' || char === "'") {
      // Copy a string verbatim (single-quoted strings become double-quoted).
      let j = i + 1;
      let body = '';
      while (j < text.length && text[j] !== char) {
        if (text[j] === '\\') {
          // `\'` means a plain quote in a single-quoted string; JSON has no such escape.
          body += char === "'" && text[j + 1] === "'" ? "'" : text[j]! + (text[j + 1] ?? '');
          j += 2;
          continue;
        }
        body += char === "'" && text[j] === '"' ? '\\"' : text[j]!;
        j += 1;
      }
      out += `"${body}"`;
      i = j + 1;
      continue;
    }
    if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      continue;
    }
    if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      continue;
    }
    if (char === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j += 1;
      if (text[j] === '}' || text[j] === ']') {
        i += 1;
        continue;
      }
    }
    out += char;
    i += 1;
  }
  return out;
}
