// Model markdown → Slack mrkdwn (https://api.slack.com/reference/surfaces/formatting), and Slack's
// message text → plain text for the model. Slack reserves only `&`, `<` and `>` (control
// sequences such as `<@U123>` and `<url|label>`); they are escaped everywhere, code included,
// so nothing the model writes can become a mention, a channel ping or a link it did not mean.

/** Escapes Slack's three control characters. */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const BOLD = '\u0001';
const LINK = '\u0002';

/** A link as `<url|label>`; a URL that is not http(s)/mailto stays text, so nothing odd becomes a link. */
function link(label: string, url: string): string {
  if (!/^(https?:|mailto:)/i.test(url)) return escapeSlackText(`${label} (${url})`);
  const safeUrl = url.replace(/[<>|\s]/g, (ch) => encodeURIComponent(ch)).replace(/&/g, '&amp;');
  return `<${safeUrl}|${escapeSlackText(label).replace(/\|/g, '¦')}>`;
}

function inline(text: string): string {
  // Inline code is kept as is (escaped); the rest gets links, bold, italic and strike.
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, index) => {
      if (index % 2 === 1) return escapeSlackText(part);
      const links: string[] = [];
      let out = part.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_all, label: string, url: string) => {
        links.push(link(label, url));
        return `${LINK}${links.length - 1}${LINK}`;
      });
      out = escapeSlackText(out)
        .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, `${BOLD}$1${BOLD}`)
        .replace(/__(?=\S)(.+?)(?<=\S)__/g, `${BOLD}$1${BOLD}`)
        .replace(/(^|[^\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\w)/g, '$1_$2_')
        .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '~$1~');
      return out
        .replace(new RegExp(BOLD, 'g'), '*')
        .replace(new RegExp(`${LINK}(\\d+)${LINK}`, 'g'), (_all, i: string) => links[Number(i)]!);
    })
    .join('');
}

function block(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (heading) return heading[1] ? `*${inline(heading[1]).replace(/^\*(.*)\*$/, '$1')}*` : '';
      const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
      if (bullet) return `${bullet[1]}• ${inline(bullet[2]!)}`;
      const quote = /^>\s?(.*)$/.exec(line);
      if (quote) return `>${inline(quote[1]!)}`;
      return inline(line);
    })
    .join('\n');
}

/** Renders model markdown as mrkdwn: bold, italic, strike, code, fenced code, links, headings as bold, bullets as •. */
export function toSlackMrkdwn(markdown: string): string {
  return markdown
    .split(/^```[^\n]*\n?/m)
    .map((part, index) => {
      if (index % 2 === 0) return block(part);
      return `\`\`\`\n${escapeSlackText(part.replace(/\n$/, ''))}\n\`\`\`\n`;
    })
    .join('')
    .replace(/\n+$/, '');
}

/**
 * Slack message text → what the model reads: entities decoded, `<@U1>` as `@U1`, `<#C1|general>`
 * as `#general`, `<https://x|label>` as `label (https://x)`, `<!here>` as `@here`.
 */
export function fromSlackText(text: string): string {
  return text
    .replace(/<([^<>]+)>/g, (_all, inner: string) => {
      const [target, label] = inner.split('|', 2) as [string, string | undefined];
      if (target.startsWith('@')) return `@${label ?? target.slice(1)}`;
      if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
      if (target.startsWith('!')) return `@${(label ?? target.slice(1)).replace(/^subteam\^/, '')}`;
      return label && label !== target ? `${label} (${target})` : target;
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Splits text into parts of at most `limit` characters, at paragraphs, then lines, then hard. */
export function splitForSlack(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    let cut = window.lastIndexOf('\n\n');
    if (cut < limit / 2) cut = window.lastIndexOf('\n');
    if (cut < limit / 2) cut = window.lastIndexOf(' ');
    if (cut < limit / 2) cut = limit;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^\s+/, '');
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}
