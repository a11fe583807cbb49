// Which paths a destructive command must never be pointed at: the root, top-level folders, the home folder.
import { posix } from 'node:path';
import type { WordValues } from './word-values.js';

/** Where the paths of one command are judged: home, the folders it may run in, the root's entries. */
export interface TargetPlace {
  home: string | undefined;
  cwds: readonly string[];
  cwdUnknown: boolean;
  /** Names of the root's entries (the usual ones plus what the machine really has). */
  topLevel: readonly string[];
}

/**
 * Names found at the top of Linux and macOS roots. The machine's own listing is
 * added at the composition root, so a glob like `/???` is judged against both.
 */
export const usualTopLevel = [
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'nix',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'snap',
  'srv',
  'sys',
  'usr',
  'var',
  'Applications',
  'Library',
  'System',
  'Users',
  'Volumes',
  'private',
];

/** `/tmp` is the one top-level folder whose loss is not a disaster (and agents clean it). */
const expendableTopLevel = new Set(['tmp']);

/** Second-level folders whose loss breaks the system (`/usr/bin`, `/*\/lib`). */
const vitalSecondLevel = new Set(['bin', 'sbin', 'lib', 'lib64', 'lib32', 'share', 'local', 'include', 'etc']);

export type TargetVerdict =
  | { kind: 'catastrophic'; shown: string }
  | { kind: 'unknown'; why: string }
  | { kind: 'safe' };

/**
 * Judges one word a destructive command gets as a path. Catastrophic: `/`, a
 * top-level folder (not /tmp), the home folder or a folder above it, or a glob
 * that takes in every entry of one of those (`/*`, `/???`, `~/{*,.*}`, `/*\/bin`).
 * Unknown: part of the word is only known at run time, or it is relative and the
 * working folder is unknown and the name could be one of those.
 */
export function judgeTarget(word: WordValues, place: TargetPlace): TargetVerdict {
  for (const value of word.values) {
    const verdict = judgePath(value, place);
    if (verdict.kind === 'catastrophic')
      return { kind: 'catastrophic', shown: value === word.raw ? value : `${word.raw} (${value})` };
  }
  if (word.unknown) return { kind: 'unknown', why: `${word.raw} is only known at run time` };
  for (const value of word.values) {
    const verdict = judgePath(value, place);
    if (verdict.kind === 'unknown') return verdict;
  }
  return { kind: 'safe' };
}

export function judgePath(value: string, place: TargetPlace): TargetVerdict {
  if (value === '') return { kind: 'safe' };
  const absolutes: string[] = [];
  if (value.startsWith('/')) absolutes.push(value);
  else if (value === '~' || value.startsWith('~/')) absolutes.push(`${place.home ?? '/~'}${value.slice(1)}`);
  else {
    for (const cwd of place.cwds) absolutes.push(posix.join(cwd, value));
    if (place.cwdUnknown && couldBeVitalFromAnywhere(value, place))
      return { kind: 'unknown', why: `${value} is relative to a folder only known at run time` };
  }
  for (const absolute of absolutes) {
    if (isCatastrophicPath(normalise(absolute), place)) return { kind: 'catastrophic', shown: value };
  }
  return { kind: 'safe' };
}

/** Collapses `//`, `/./`, `..` and a trailing `/` (a glob segment before `..` is taken as a folder). */
function normalise(path: string): string {
  const normal = posix.normalize(path);
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

function isCatastrophicPath(path: string, place: TargetPlace): boolean {
  const parts = segments(path);
  const critical = criticalFolders(place);
  const firstGlob = parts.findIndex(hasGlob);
  if (firstGlob < 0) return critical.has(`/${parts.join('/')}`);
  const parent = `/${parts.slice(0, firstGlob).join('/')}`;
  const glob = parts[firstGlob] ?? '';
  const rest = parts.slice(firstGlob + 1);
  const restIsBroad = rest.every(isBroad);
  if (parent === '/') {
    const names = [...new Set([...usualTopLevel, ...place.topLevel])].filter((name) => !expendableTopLevel.has(name));
    const matcher = globRegExp(glob);
    if (!names.some((name) => matcher.test(name))) return false;
    return restIsBroad || vitalSecondLevel.has(rest[0] ?? '') || (rest.length > 0 && hasGlob(rest[0] ?? ''));
  }
  if (critical.has(parent)) {
    if (isBroad(glob) && restIsBroad) return true;
    // `/home/*` holds the home folder itself.
    const homeName = place.home ? posix.basename(place.home) : undefined;
    return homeName !== undefined && `${parent}/${homeName}` === place.home && globRegExp(glob).test(homeName);
  }
  return false;
}

/** The root, top-level folders but /tmp, the home folder and every folder above it. */
function criticalFolders(place: TargetPlace): Set<string> {
  const critical = new Set<string>(['/']);
  for (const name of [...usualTopLevel, ...place.topLevel]) if (!expendableTopLevel.has(name)) critical.add(`/${name}`);
  if (place.home) {
    let folder = normalise(place.home);
    while (folder !== '/') {
      critical.add(folder);
      folder = posix.dirname(folder);
    }
  }
  for (const name of vitalSecondLevel) critical.add(`/usr/${name}`);
  critical.add('/var/lib');
  critical.add('/~');
  return critical;
}

/** With an unknown working folder, `usr`, `*` or `../x` could name something vital. */
function couldBeVitalFromAnywhere(value: string, place: TargetPlace): boolean {
  const first = segments(value)[0] ?? '';
  if (first === '..' || first === '.' || hasGlob(first)) return true;
  const names = new Set([...usualTopLevel, ...place.topLevel]);
  if (place.home) for (const part of segments(place.home)) names.add(part);
  return names.has(first);
}

export function hasGlob(segment: string): boolean {
  return /[*?[]/.test(segment);
}

/** A segment made only of wildcards (and dots): it takes in (nearly) every entry of its folder. */
function isBroad(segment: string): boolean {
  return hasGlob(segment) && /^(\.?(\*|\?|\[[^\]]*\])+\.?)+$/.test(segment.replace(/\*+/g, '*'));
}

/** A glob segment as a regular expression; `*` also matches a leading dot (fail closed). */
export function globRegExp(segment: string): RegExp {
  let source = '';
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index] ?? '';
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const close = segment.indexOf(']', index + 2);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      let body = segment.slice(index + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      source += `[${body.replace(/\\/g, '\\\\')}]`;
      index = close;
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
