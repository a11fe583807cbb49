import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** One allowlist entry: a glob on the binary (bare name or resolved path) plus an optional regex on its arguments. */
export const allowlistEntrySchema = z
  .object({
    pattern: z.string().min(1, 'pattern must not be empty'),
    argPattern: z.string().refine(isValidRegex, { message: 'argPattern is not a valid regular expression' }).optional(),
    /**
     * Only when the command runs in this folder or below it: what an "allow always … in this
     * folder" answer saves, so the same arguments elsewhere still ask.
     */
    cwdWithin: z
      .string()
      .refine((path) => isAbsolute(path), { message: 'cwdWithin must be an absolute folder path' })
      .optional(),
  })
  .strict();

export const execPolicySchema = z
  .object({
    security: z.enum(['deny', 'allowlist', 'full']).default('allowlist'),
    ask: z.enum(['off', 'on-miss', 'always']).default('on-miss'),
    askFallback: z.enum(['deny', 'allowlist', 'full']).default('deny'),
    allowlist: z.array(allowlistEntrySchema).default([]),
  })
  .strict();

export type AllowlistEntry = z.infer<typeof allowlistEntrySchema>;
export type ExecPolicy = z.infer<typeof execPolicySchema>;
export type ExecDecision = 'allow' | 'ask' | 'deny';

export const defaultExecPolicy: ExecPolicy = execPolicySchema.parse({});

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/**
 * Glob → RegExp: `*` and `?` stay within one path segment, `**` crosses them,
 * `[…]` is a class. Patterns are anchored: `git` does not match `git-lfs`.
 */
export function globToRegExp(glob: string): RegExp {
  const cached = globCache.get(glob);
  if (cached) return cached;
  const compiled = compileGlob(glob);
  if (globCache.size > 1000) globCache.clear();
  globCache.set(glob, compiled);
  return compiled;
}

/** Policies are checked for every command; their few patterns are compiled once. */
const globCache = new Map<string, RegExp>();
const argPatternCache = new Map<string, RegExp>();

export function argPatternRegExp(source: string): RegExp {
  let compiled = argPatternCache.get(source);
  if (!compiled) {
    compiled = new RegExp(source);
    if (argPatternCache.size > 1000) argPatternCache.clear();
    argPatternCache.set(source, compiled);
  }
  return compiled;
}

function compileGlob(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] ?? '';
    if (char === '*') {
      if (glob[index + 1] === '*') {
        source += '.*';
        index++;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const close = glob.indexOf(']', index + 1);
      if (close < 0) source += '\\[';
      else {
        source += `[${glob
          .slice(index + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        index = close;
      }
    } else source += char.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
