import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';

/**
 * CSP hash sources for the inline scripts a served HTML page itself contains. Hearth's own
 * UI has none; another build served as the Control UI (OpenClaw's, whose index.html sets its
 * theme inline) keeps working under `script-src 'self'` without `'unsafe-inline'`: only
 * those exact scripts run, and a script injected later matches no hash.
 */
export function createInlineScriptHashes(): (path: string) => Promise<string[]> {
  const cache = new Map<string, { mtimeMs: number; size: number; hashes: string[] }>();
  return async (path) => {
    const info = await stat(path);
    const cached = cache.get(path);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.hashes;
    const hashes = inlineScriptHashes(await readFile(path, 'utf8'));
    cache.set(path, { mtimeMs: info.mtimeMs, size: info.size, hashes });
    return hashes;
  };
}

/** `'sha256-…'` of each `<script>` without `src`, over its text exactly as the browser hashes it. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes) || /\stype\s*=\s*["']?application\/(?:ld\+)?json/i.test(attributes)) continue;
    const body = match[2] ?? '';
    if (!body.trim()) continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}
