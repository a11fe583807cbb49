import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';

export interface PluginRefusal {
  file: string;
  reason: string;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/**
 * Every entry of a plugin folder, a directory before what is in it, as `lstat` sees it: symbolic
 * links are reported, never followed. node_modules and .git are skipped; 8 levels at most.
 */
async function* pluginEntries(dir: string, depth = 0): AsyncGenerator<{ path: string; name: string; info: Stats }> {
  if (depth > 8) return;
  for (const name of await readdir(dir)) {
    if (name === 'node_modules' || name === '.git') continue;
    const path = join(dir, name);
    const info = await lstat(path);
    yield { path, name, info };
    if (info.isDirectory()) yield* pluginEntries(path, depth + 1);
  }
}

/**
 * Load-time checks: the entry must stay inside the plugin folder (no `..`, no
 * symlink out), and no file may be world-writable or owned by another user —
 * either would let someone else change code Hearth runs.
 */
export async function checkPluginFiles(
  pluginRoot: string,
  entry: string,
  uid: number | undefined,
): Promise<PluginRefusal[]> {
  const refusals: PluginRefusal[] = [];
  const rootReal = await realpath(pluginRoot);
  const entryPath = resolve(rootReal, entry);
  if (!inside(rootReal, entryPath)) {
    refusals.push({ file: entry, reason: `entry escapes the plugin folder (${relative(rootReal, entryPath)})` });
    return refusals;
  }
  for await (const { path, info } of pluginEntries(rootReal)) {
    if (info.isSymbolicLink()) {
      const target = await realpath(path).catch(() => undefined);
      if (!target || !inside(rootReal, target))
        refusals.push({ file: path, reason: 'symbolic link points outside the plugin folder' });
      continue;
    }
    if ((info.mode & 0o002) !== 0)
      refusals.push({ file: path, reason: 'world-writable: anyone on this machine could change it' });
    if (uid !== undefined && info.uid !== uid && info.uid !== 0)
      refusals.push({ file: path, reason: `owned by another user (uid ${info.uid})` });
  }
  return refusals;
}

const DANGEROUS: { pattern: RegExp; reason: string }[] = [
  {
    pattern: /child_process[\s\S]{0,400}\b(exec|execSync)\s*\(/,
    reason: 'runs shell commands through child_process.exec',
  },
  { pattern: /\bspawn(Sync)?\s*\(\s*['"`](\/bin\/)?(ba|z|da)?sh['"`]/, reason: 'spawns a shell' },
  { pattern: /\bshell\s*:\s*true/, reason: 'spawns a process with shell: true' },
  {
    pattern: /\bfetch\s*\([\s\S]{0,400}\b(eval|new\s+Function)\s*\(/,
    reason: 'evaluates text fetched from the network',
  },
  {
    pattern: /\b(eval|new\s+Function)\s*\([\s\S]{0,200}\bfetch\s*\(/,
    reason: 'evaluates text fetched from the network',
  },
  { pattern: /\.ssh\/|id_(rsa|ed25519|ecdsa)\b/, reason: 'reads SSH keys' },
  { pattern: /Keychains\/|login\.keychain|\bkeytar\b|secret-tool\b/, reason: 'reads the OS keychain' },
];

/** Install-time static scan of a plugin's source for dangerous patterns. Each finding names the file. */
export async function scanPluginSource(pluginRoot: string): Promise<PluginRefusal[]> {
  const findings: PluginRefusal[] = [];
  for await (const { path, name, info } of pluginEntries(pluginRoot)) {
    if (info.isDirectory() || !/\.(m?[jt]s|cjs|tsx|jsx)$/.test(name) || info.size > 2_000_000) continue;
    const text = await readFile(path, 'utf8');
    for (const reason of scanSourceText(text)) findings.push({ file: path, reason });
  }
  return findings;
}

/** The same scan over one text (a skill's script, src-main/skills): the reasons of every rule it trips. */
export function scanSourceText(text: string): string[] {
  return DANGEROUS.filter((rule) => rule.pattern.test(text)).map((rule) => rule.reason);
}
