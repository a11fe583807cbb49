/**
 * A shell-style glob as a RegExp over `/`-separated paths: `*` and `?` stay within one
 * segment, `**` crosses them, `{a,b}` picks one, `[abc]` a class. Patterns without a `/`
 * match the file name alone (as `find -name`); with one, the path from the search root.
 */
export function globMatcher(pattern: string): (relativePath: string) => boolean {
  if (pattern.trim() === '') throw new Error('glob pattern must not be empty');
  const regex = new RegExp(`^${globSource(pattern.replace(/^\.\//, ''))}$`);
  if (pattern.includes('/')) return (path) => regex.test(path);
  return (path) => regex.test(path.slice(path.lastIndexOf('/') + 1));
}

function globSource(pattern: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else if (ch === '{') {
      braces += 1;
      out += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces -= 1;
      out += ')';
    } else if (ch === ',' && braces > 0) out += '|';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = end;
      }
    } else out += ch.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  if (braces > 0) throw new Error(`glob pattern has an unclosed "{": ${pattern}`);
  return out;
}
