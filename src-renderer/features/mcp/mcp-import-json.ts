import type { MessageKey } from '../../i18n/en.js';

export type AddTab = 'json' | 'command' | 'url';

export interface CommandForm {
  name: string;
  command: string;
  /** One argument a line: a path with spaces stays one argument. */
  args: string;
  /** `KEY=value` a line. */
  env: string;
}

export interface UrlForm {
  name: string;
  url: string;
}

export interface AddForm {
  pasted: string;
  /** The name for a pasted single server object (which carries none of its own). */
  pastedName: string;
  command: CommandForm;
  url: UrlForm;
}

/** What the form adds, as the JSON `mcp.servers.import` reads, or what is wrong with it. */
export type BuiltImport =
  | { ok: true; json: string; names: string[]; single: boolean; suggestedName?: string }
  | {
      ok: false;
      message: MessageKey;
      values?: Record<string, string>;
      field: 'json' | 'name' | 'command' | 'env' | 'url';
      single: boolean;
      suggestedName?: string;
    };

/**
 * Turns the Add panel into the `{ "mcpServers": { … } }` JSON the gateway imports, so the three ways
 * in go through the one import (and its checks). Pasted JSON is sent as is; a single server object
 * (`{ "command": … }` without a name) is wrapped under the name the person gives.
 */
export function buildImport(tab: AddTab, form: AddForm): BuiltImport {
  if (tab === 'command') {
    const { name, command } = form.command;
    if (!command.trim()) return { ok: false, message: 'mcp.add.error.command', field: 'command', single: false };
    const args = lines(form.command.args);
    const env: Record<string, string> = {};
    for (const line of lines(form.command.env)) {
      const at = line.indexOf('=');
      if (at <= 0) return { ok: false, message: 'mcp.add.error.env', values: { line }, field: 'env', single: false };
      env[line.slice(0, at).trim()] = line.slice(at + 1);
    }
    const entry = {
      command: command.trim(),
      ...(args.length > 0 ? { args } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
    };
    return wrap(name.trim() || suggestName(entry), entry);
  }
  if (tab === 'url') {
    const { name, url } = form.url;
    if (!isHttpUrl(url.trim()))
      return { ok: false, message: 'mcp.add.error.url', values: { url: url.trim() }, field: 'url', single: false };
    const entry = { url: url.trim() };
    return wrap(name.trim() || suggestName(entry), entry);
  }
  if (!form.pasted.trim()) return { ok: false, message: 'mcp.add.error.empty', field: 'json', single: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(form.pasted);
  } catch (error) {
    return {
      ok: false,
      message: 'mcp.add.error.json',
      values: { error: (error as Error).message },
      field: 'json',
      single: false,
    };
  }
  if (!isRecord(parsed)) return { ok: false, message: 'mcp.add.error.notObject', field: 'json', single: false };
  if (typeof parsed.command === 'string' || typeof parsed.url === 'string') {
    const suggestedName = suggestName(parsed);
    const built = wrap(form.pastedName.trim() || suggestedName, parsed);
    return { ...built, single: true, suggestedName };
  }
  const map = isRecord(parsed.mcpServers)
    ? parsed.mcpServers
    : isRecord(parsed.servers)
      ? parsed.servers
      : isRecord(parsed.mcp) && isRecord(parsed.mcp.servers)
        ? parsed.mcp.servers
        : parsed;
  const names = Object.keys(map);
  if (names.length === 0) return { ok: false, message: 'mcp.add.error.noServers', field: 'json', single: false };
  return { ok: true, json: form.pasted, names, single: false };
}

function wrap(name: string, entry: Record<string, unknown>): BuiltImport {
  return { ok: true, json: JSON.stringify({ mcpServers: { [name]: entry } }, null, 2), names: [name], single: false };
}

/** A name from what the server is: the package a command runs, or the URL's host. */
export function suggestName(entry: Record<string, unknown>): string {
  if (typeof entry.url === 'string' && isHttpUrl(entry.url)) {
    const host = new URL(entry.url).hostname.replace(/^(www|mcp|api)\./, '');
    return host.split('.')[0] || 'server';
  }
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
  const command = typeof entry.command === 'string' ? entry.command : '';
  const runner = /(^|\/)(npx|uvx|bunx|pnpx|docker|node|python3?|deno)$/.test(command);
  const subject = runner ? (args.find((a) => !a.startsWith('-') && a !== 'run') ?? command) : command;
  const base =
    subject
      .split('/')
      .pop()
      ?.replace(/@[^@]*$/, '')
      .replace(/^(mcp-)?server-/, '')
      .replace(/-mcp(-server)?$/, '') ?? '';
  return base.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'server';
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
