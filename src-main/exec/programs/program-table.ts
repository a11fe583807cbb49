import type { ShellWord } from '../shell-words.js';
import { awk } from './awk.js';
import { curl } from './curl.js';
import { docker } from './docker.js';
import { fileWriters } from './file-writers.js';
import { find } from './find.js';
import { git } from './git.js';
import { make } from './make.js';
import { node } from './node.js';
import { npm, npx } from './npm.js';
import { bun, pnpm, yarn } from './package-managers.js';
import { less, man } from './pagers.js';
import { pip, pipx } from './pip.js';
import type { ProgramContext, ProgramKnowledge, Risk } from './program-knowledge.js';
import { python } from './python.js';
import { ripgrep } from './ripgrep.js';
import { rsync } from './rsync.js';
import { scriptingLanguages } from './scripting-languages.js';
import { sed } from './sed.js';
import { sort, uniq } from './sort.js';
import { scp, ssh } from './ssh.js';
import { tar } from './tar.js';
import { wget } from './wget.js';

/** Every program the analyser knows options and subcommands of. */
export const knownPrograms: readonly ProgramKnowledge[] = [
  git,
  node,
  npm,
  npx,
  pnpm,
  yarn,
  bun,
  python,
  pip,
  pipx,
  sed,
  awk,
  find,
  tar,
  rsync,
  curl,
  wget,
  sort,
  uniq,
  make,
  docker,
  ssh,
  scp,
  less,
  man,
  ripgrep,
  ...fileWriters,
  ...scriptingLanguages,
];

/**
 * Programs looked at and found to have no option that runs code, writes outside
 * the workspace, opens the network or publishes (GNU and BSD versions): a bare
 * entry allows any use. Listed so the docs and tests say so explicitly.
 */
export const plainReaders: readonly string[] = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'cut',
  'tr',
  'nl',
  'diff',
  'cmp',
  'comm',
  'file',
  'stat',
  'du',
  'df',
  'jq',
  'od',
  'hexdump',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'which',
  'whoami',
  'id',
  'uname',
  'date',
  'pwd',
  'echo',
  'printf',
];

const byName = new Map<string, ProgramKnowledge>();
for (const program of knownPrograms) for (const name of program.names) byName.set(name, program);

export function knowledgeOf(base: string): ProgramKnowledge | undefined {
  return byName.get(base) ?? knownPrograms.find((program) => program.matches?.(base));
}

/** Every risk of one invocation (after wrappers were peeled off), de-duplicated. */
export function assessProgram(base: string, args: readonly ShellWord[], context: ProgramContext): Risk[] {
  const program = knowledgeOf(base);
  if (!program) return [];
  const seen = new Set<string>();
  return program.assess(args, context).filter((found) => {
    const key = `${found.kind}\u0000${found.detail}\u0000${found.spelled.join(' ')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
