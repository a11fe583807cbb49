import { isAbsolute, relative, resolve } from 'node:path';
import type { Finding } from './analysis-types.js';
import { isBlockDevice } from './hard-floor.js';
import type { ShellWord } from './shell-words.js';

/** Targets every shell writes to harmlessly. */
const harmlessDevices = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);

/**
 * Judges one file a command would write (a `>` redirect, `tee`, `sort -o`…): fine
 * inside the working folder unless a dotfile; always a miss for devices, `/dev/tcp`,
 * shell rc files and `~/.ssh`; a deny for block devices (the hard floor).
 */
export function writeTargetFinding(
  target: ShellWord,
  cwd: string,
  home: string | undefined,
  what: string,
  /** The folder a relative target resolves in, when a `cd` moved away from `cwd`. */
  runIn: string = cwd,
): Finding | undefined {
  const text = target.text;
  if (harmlessDevices.has(text)) return undefined;
  if (isBlockDevice(text))
    return { code: 'overwrite-disk', detail: `${what} onto the block device ${text}`, severity: 'deny' };
  if (target.dynamic || target.ansiC || target.brace || target.glob)
    return miss(`${what} to ${target.raw}, whose name is only known at run time`);
  if (text.startsWith('/dev/')) return miss(`${what} to the device ${text}`);
  const expanded = text === '~' || text.startsWith('~/') ? (home ? home + text.slice(1) : undefined) : text;
  if (expanded === undefined) return miss(`${what} to ${text} in the home folder`);
  const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(runIn, expanded);
  const inside = relative(resolve(cwd), absolute);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    return miss(`${what} to ${text}, outside the working folder`);
  if (inside.split('/').some((part) => part.startsWith('.')))
    return miss(`${what} to ${text}, a dotfile (shell rc files, .git, .ssh… change behaviour)`);
  return undefined;
}

function miss(detail: string): Finding {
  return { code: 'write-outside-workspace', detail, severity: 'miss' };
}
