/**
 * A `.env` file as Hermes (python-dotenv) and OpenClaw write it: `KEY=value` lines, `#`
 * comments, optional `export `, single or double quotes. Values are returned, never logged.
 */
export function parseDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!.trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replaceAll('\\n', '\n').replaceAll('\\"', '"');
    } else {
      const comment = value.indexOf(' #');
      if (comment >= 0) value = value.slice(0, comment).trim();
    }
    if (value) values.set(match[1]!, value);
  }
  return values;
}
