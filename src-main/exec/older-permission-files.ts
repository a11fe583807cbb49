import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PermissionRule } from './permission-store.js';

// What the older files held; `loose`, so keys this version never read do not refuse the file.
const execApprovalsSchema = z.looseObject({
  agents: z
    .record(
      z.string(),
      z.looseObject({
        allowlist: z.array(z.looseObject({ pattern: z.string(), argPattern: z.string().optional() })).optional(),
      }),
    )
    .optional(),
});
const mcpApprovalsSchema = z.looseObject({
  always: z.array(z.looseObject({ tool: z.string(), addedAtMs: z.number().optional() })).optional(),
});

/** Decodes one older file; a file that is not one fails naming it and the field, so no rule is silently dropped. */
function decode<T>(schema: z.ZodType<T>, value: unknown, file: string): T | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(
    `${file} cannot be read as an older "allow always" list (${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}); it was left untouched: fix or move it`,
  );
}

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
  const exec = decode(execApprovalsSchema, files.exec, 'state/exec-approvals.json');
  for (const [agentId, value] of Object.entries(exec?.agents ?? {})) {
    for (const entry of value.allowlist ?? []) {
      const argPattern = entry.argPattern;
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
  const mcp = decode(mcpApprovalsSchema, files.mcp, 'state/mcp-approvals.json');
  for (const entry of mcp?.always ?? []) {
    rules.push({
      id: id('mcp', entry.tool),
      kind: 'mcp',
      scope: 'tool',
      tool: entry.tool,
      origin: 'imported:mcp-approvals.json',
      addedAtMs: entry.addedAtMs || now,
    });
  }
  return rules;
}
