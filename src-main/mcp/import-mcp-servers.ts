import { type McpServerConfigInput, mcpServerConfigSchema, mcpServerNamePattern } from './mcp-config.js';

export interface McpImport {
  /** Entries ready for hearth.json's `mcp.servers` (as written: defaults are not filled in). */
  servers: Record<string, McpServerConfigInput>;
  /** What was changed on the way in (a renamed server, a field Hearth does not use). */
  notes: string[];
  /** Entries left out, each naming the server and what is wrong with it. */
  errors: string[];
}

/** Fields other clients write that carry no meaning for Hearth (their own auto-approve lists etc.). */
const ignoredFields = new Set(['autoApprove', 'alwaysAllow', 'transportType', 'timeout', 'description', 'envFile']);
const knownFields = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'disabled', 'enabled']);

/**
 * Reads the JSON Claude Desktop, Cursor and VS Code use for MCP servers — `{ "mcpServers": { … } }`,
 * VS Code's `{ "servers": { … } }`, or the bare map — into Hearth's `mcp.servers` entries.
 * Values are kept as they are (an env token stays a literal; move it to the secret store with
 * `{ "secret": "<name>" }` afterwards). Never throws on a bad entry: it is reported in `errors`.
 */
export function importMcpServers(input: unknown): McpImport {
  const result: McpImport = { servers: {}, notes: [], errors: [] };
  let parsed = input;
  if (typeof input === 'string') {
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      result.errors.push(`not JSON: ${(error as Error).message}`);
      return result;
    }
  }
  if (!isRecord(parsed)) {
    result.errors.push('expected a JSON object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code)');
    return result;
  }
  const map = isRecord(parsed.mcpServers)
    ? parsed.mcpServers
    : isRecord(parsed.servers)
      ? parsed.servers
      : isRecord(parsed.mcp) && isRecord(parsed.mcp.servers)
        ? parsed.mcp.servers
        : parsed;
  for (const [originalName, raw] of Object.entries(map)) {
    const name = safeServerName(originalName, result.servers);
    if (name !== originalName) result.notes.push(`server "${originalName}" is imported as "${name}"`);
    if (!isRecord(raw)) {
      result.errors.push(`server "${originalName}": expected an object with command or url`);
      continue;
    }
    const entry: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) {
      if (key === 'disabled') entry.enabled = value !== true;
      else if (key === 'type') entry.type = value === 'streamableHttp' ? 'streamable-http' : value;
      else if (knownFields.has(key)) entry[key] = value;
      else if (ignoredFields.has(key)) result.notes.push(`server "${originalName}": "${key}" is not used by Hearth`);
      else result.notes.push(`server "${originalName}": unknown field "${key}" left out`);
    }
    const checked = mcpServerConfigSchema.safeParse(entry);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      result.errors.push(`server "${originalName}": ${where}${issue?.message ?? 'invalid'}`);
      continue;
    }
    result.servers[name] = entry as McpServerConfigInput;
  }
  return result;
}

function safeServerName(name: string, taken: Record<string, unknown>): string {
  let safe = name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 28);
  if (!safe || !mcpServerNamePattern.test(safe)) safe = 'server';
  let candidate = safe;
  for (let n = 2; Object.hasOwn(taken, candidate); n++) candidate = `${safe}-${n}`;
  return candidate;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What importing `input` into a config that already has `existing` servers would add: a name already
 * in hearth.json is left as it is there (and said so), never overwritten by an import.
 */
export function planMcpImport(input: unknown, existing: Readonly<Record<string, unknown>>): McpImport {
  const imported = importMcpServers(input);
  const servers: Record<string, McpServerConfigInput> = {};
  for (const [name, entry] of Object.entries(imported.servers)) {
    if (Object.hasOwn(existing, name)) imported.notes.push(`server "${name}" is already in mcp.servers; left as it is`);
    else servers[name] = entry;
  }
  return { ...imported, servers };
}
