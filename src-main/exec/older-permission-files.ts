import { createHash } from 'node:crypto';
import type { PermissionRule } from './permission-store.js';

/**
 * The "allow always" lists Hearth kept before `state/permissions.json` (format version 0 of the
 * approvals, issue 15): `exec-approvals.json` (`agents.<id>.allowlist[]`) and `mcp-approvals.json`
 * (`always[]`). Pure: the parsed files in, the rules out; the same input gives the same ids, so
 * the upgrade (src-main/migrations) and the permission store agree and a re-run adds nothing.
 */
export function rulesFromOlderPermissionFiles(files: { exec?: unknown; mcp?: unknown }, now: number): PermissionRule[] {
  const rules: PermissionRule[] = [];
  const id = (...parts: (string | undefined)[]) =>
    `perm_${createHash('sha256')
      .update(parts.map((part) => part ?? '').join('\0'))
      .digest('hex')
      .slice(0, 10)}`;
  const agents = (files.exec as { agents?: unknown } | null | undefined)?.agents;
  for (const [agentId, value] of Object.entries((agents ?? {}) as Record<string, { allowlist?: unknown }>)) {
    for (const entry of Array.isArray(value?.allowlist) ? value.allowlist : []) {
      if (typeof entry?.pattern !== 'string') continue;
      const argPattern = typeof entry.argPattern === 'string' ? (entry.argPattern as string) : undefined;
      rules.push({
        id: id('exec', agentId, entry.pattern, argPattern),
        kind: 'exec',
        scope: argPattern === undefined ? 'binary' : 'exact',
        agentId,
        pattern: entry.pattern,
        ...(argPattern === undefined ? {} : { argPattern }),
        origin: 'imported:exec-approvals.json',
        addedAtMs: now,
      });
    }
  }
  const always = (files.mcp as { always?: unknown } | null | undefined)?.always;
  for (const entry of Array.isArray(always) ? always : []) {
    if (typeof entry?.tool !== 'string') continue;
    rules.push({
      id: id('mcp', entry.tool),
      kind: 'mcp',
      scope: 'tool',
      tool: entry.tool,
      origin: 'imported:mcp-approvals.json',
      addedAtMs: Number(entry.addedAtMs) || now,
    });
  }
  return rules;
}
