// Discord's markdown dialect (https://support.discord.com/hc/en-us/articles/210298617): bold,
// italic, strike, inline and fenced code, quotes, lists, headings # to ### and masked links are
// native, so model markdown mostly passes through. What Discord would show raw is converted:
// headings #### and deeper become bold lines, images become links. Mentions in the text never
// ping anyone (the channel sends `allowed_mentions: {parse: []}`).

export const DISCORD_MAX_MESSAGE = 2000;

export function toDiscordMarkdown(text: string): string {
  const lines = text.split('\n');
  let inFence = false;
  return lines
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return line;
      }
      if (inFence) return line;
      const heading = /^\s{0,3}#{4,6}\s+(.+?)\s*#*\s*$/.exec(line);
      if (heading) return `**${heading[1]}**`;
      return line.replace(
        /!\[([^\]]*)\]\(([^)\s]+)\)/g,
        (_, alt: string, url: string) => `[${alt || 'image'}](${url})`,
      );
    })
    .join('\n');
}

/** Where to cut `text` at most `max` long: a paragraph, then a line, then a space, else hard. */
function cutAt(text: string, max: number): number {
  const window = text.slice(0, max);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(separator);
    if (at > max / 3) return at;
  }
  return max;
}

/**
 * Splits a reply into messages of at most `max` characters, at paragraphs where it can. A fenced
 * code block cut in two is closed at the end of one part and opened again (same language) in the next.
 */
export function splitForDiscord(text: string, max = DISCORD_MAX_MESSAGE): string[] {
  const parts: string[] = [];
  let rest = text;
  let reopen = '';
  while (rest.length > 0) {
    const budget = max - reopen.length - 4; // room for a closing "\n```"
    let chunk: string;
    if (reopen.length + rest.length <= max) {
      chunk = rest;
      rest = '';
    } else {
      const at = cutAt(rest, budget);
      chunk = rest.slice(0, at);
      rest = rest.slice(at).replace(/^\s+/, '');
    }
    let part = reopen + chunk;
    const fences = [...part.matchAll(/^\s*(```|~~~)(\S*)/gm)];
    if (fences.length % 2 === 1 && rest.length > 0) {
      const open = fences.at(-1)!;
      part = `${part.replace(/\s+$/, '')}\n${open[1]}`;
      reopen = `${open[1]}${open[2]}\n`;
    } else reopen = '';
    if (part.trim() !== '') parts.push(part);
  }
  return parts.length > 0 ? parts : [''];
}
