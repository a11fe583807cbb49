// Model markdown → Telegram MarkdownV2 (https://core.telegram.org/bots/api#markdownv2-style).
// MarkdownV2 rejects a whole message when one reserved character is unescaped, and models
// write "1. Done!" all the time, so everything that is not a recognised construct is escaped.
// Recognised: fenced and inline code, **bold**, *italic* / _italic_, ~~strike~~, [links](url),
// headings (rendered bold) and "- " bullets (rendered "•"). Anything unbalanced stays literal.

const RESERVED = /[_*[\]()~`>#+\-=|{}.!\\]/g;

/** Escapes plain text: every reserved character gets a backslash. */
export function escapeMarkdownV2(text: string): string {
  return text.replace(RESERVED, (ch) => `\\${ch}`);
}

/** Inside `code` and ``` blocks only ` and \ are escaped. */
function escapeCode(text: string): string {
  return text.replace(/[`\\]/g, (ch) => `\\${ch}`);
}

/** Inside the (url) of a link only ) and \ are escaped. */
function escapeUrl(url: string): string {
  return url.replace(/[)\\]/g, (ch) => `\\${ch}`);
}

const INLINE =
  /`([^`\n]+)`|\*\*([^*\n]+?)\*\*|~~([^~\n]+?)~~|\[([^\]\n]+)\]\(([^)\s]+)\)|(?<![\w*])\*([^*\n]+?)\*(?![\w*])|(?<![\w_])_([^_\n]+?)_(?![\w_])/g;

function renderInline(line: string): string {
  let out = '';
  let last = 0;
  for (const match of line.matchAll(INLINE)) {
    out += escapeMarkdownV2(line.slice(last, match.index));
    const [, code, bold, strike, linkText, linkUrl, italicStar, italicUnderscore] = match;
    if (code !== undefined) out += `\`${escapeCode(code)}\``;
    else if (bold !== undefined) out += `*${escapeMarkdownV2(bold)}*`;
    else if (strike !== undefined) out += `~${escapeMarkdownV2(strike)}~`;
    else if (linkText !== undefined) out += `[${escapeMarkdownV2(linkText)}](${escapeUrl(linkUrl!)})`;
    else out += `_${escapeMarkdownV2((italicStar ?? italicUnderscore)!)}_`;
    last = match.index + match[0].length;
  }
  return out + escapeMarkdownV2(line.slice(last));
}

function renderLine(line: string): string {
  const heading = /^#{1,6}\s+(.*)$/.exec(line);
  if (heading) return `*${escapeMarkdownV2(heading[1]!.replace(/\*\*/g, ''))}*`;
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1]}• ${renderInline(bullet[2]!)}`;
  return renderInline(line);
}

/** Renders model markdown as MarkdownV2 that Telegram accepts. */
export function toTelegramMarkdownV2(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\S*)\s*$/.exec(lines[i]!);
    if (fence) {
      const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
      if (end !== -1) {
        const language = fence[1]!.replace(/[^\w+-]/g, '');
        out.push(`\`\`\`${language}\n${escapeCode(lines.slice(i + 1, end).join('\n'))}\n\`\`\``);
        i = end;
        continue;
      }
    }
    out.push(renderLine(lines[i]!));
  }
  return out.join('\n');
}

/**
 * Splits text into parts of at most `max` characters, at a paragraph, then a line, then a
 * space, so each part renders on its own (a long reply becomes several messages).
 */
export function splitForTelegram(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf('\n\n');
    if (cut < max / 2) cut = window.lastIndexOf('\n');
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) cut = max;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}
