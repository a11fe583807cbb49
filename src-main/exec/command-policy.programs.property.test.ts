import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from './bash-parser.js';
import { type CommandChecker, createCommandChecker } from './command-checker.js';
import { type ExecPolicy, execPolicySchema } from './exec-policy.js';
import { createPathResolver } from './path-resolver.js';

// Issue 17: "option parsing the way each program parses (clusters, `--opt=value`, abbreviations of
// long options)". Whatever spelling a program accepts for a risky option, a bare allowlist entry
// must not allow it.
const programs = [
  'node',
  'git',
  'sed',
  'tar',
  'rsync',
  'curl',
  'npm',
  'python3',
  'sort',
  'make',
  'wget',
  'perl',
  'ruby',
  'nohup',
  'timeout',
  'nice',
];
const bare: ExecPolicy = execPolicySchema.parse({ allowlist: programs.map((pattern) => ({ pattern })) });
const resolver = createPathResolver({ path: '/usr/bin', isExecutable: (path) => path.startsWith('/usr/bin/') });
const where = { cwd: '/home/me/project', home: '/home/me' };

let checker: CommandChecker;
beforeAll(async () => {
  checker = createCommandChecker(await loadBashParser(), resolver);
});

interface RiskyOption {
  /** Program and words before the option (`git grep`). */
  command: string;
  long?: string;
  /** The shortest abbreviation the program itself accepts (none: exact names only). */
  abbreviateFrom?: number;
  short?: string;
  /** `required`: `--opt=v`, `--opt v`, `-Xv`, `-X v`; `optional`: attached only; undefined: no value. */
  value?: 'required' | 'optional';
  example: string;
  /** Harmless letters of the same program that can share a cluster with `short`. */
  clusterWith: string[];
  /** Operands that make the invocation complete (placed before or after the option when the program permutes). */
  operands: string[];
  /** Options may follow operands. */
  permutes: boolean;
}

const catalogue: RiskyOption[] = [
  {
    command: 'node',
    long: '--eval',
    short: '-e',
    value: 'required',
    example: '1',
    clusterWith: ['p'],
    operands: [],
    permutes: false,
  },
  {
    command: 'node',
    long: '--print',
    short: '-p',
    value: 'required',
    example: '1',
    clusterWith: ['e'],
    operands: [],
    permutes: false,
  },
  {
    command: 'node',
    long: '--require',
    short: '-r',
    value: 'required',
    example: './hook.js',
    clusterWith: [],
    operands: ['app.js'],
    permutes: false,
  },
  {
    command: 'node',
    long: '--import',
    value: 'required',
    example: 'data:text/javascript,1',
    clusterWith: [],
    operands: ['app.js'],
    permutes: false,
  },
  {
    command: 'node',
    long: '--experimental-loader',
    value: 'required',
    example: './l.mjs',
    clusterWith: [],
    operands: ['app.js'],
    permutes: false,
  },
  {
    command: 'node',
    long: '--inspect',
    value: 'optional',
    example: '0.0.0.0:9229',
    clusterWith: [],
    operands: ['app.js'],
    permutes: false,
  },
  {
    command: 'git grep',
    long: '--open-files-in-pager',
    abbreviateFrom: 6,
    short: '-O',
    value: 'optional',
    example: 'less',
    clusterWith: ['i', 'n', 'w', 'l'],
    operands: ['needle'],
    permutes: true,
  },
  {
    command: 'git clone',
    long: '--config',
    abbreviateFrom: 5,
    short: '-c',
    value: 'required',
    example: 'core.fsmonitor=x',
    clusterWith: ['q', 'n', 'l'],
    operands: ['./repo', 'copy'],
    permutes: true,
  },
  {
    command: 'git difftool',
    long: '--extcmd',
    abbreviateFrom: 5,
    short: '-x',
    value: 'required',
    example: 'sh',
    clusterWith: ['y', 'g', 'd'],
    operands: ['HEAD'],
    permutes: true,
  },
  {
    command: 'git rebase',
    long: '--exec',
    abbreviateFrom: 5,
    short: '-x',
    value: 'required',
    example: 'make',
    clusterWith: ['i', 'q', 'v'],
    operands: ['main'],
    permutes: true,
  },
  {
    command: 'git diff',
    long: '--ext-diff',
    abbreviateFrom: 5,
    example: '',
    clusterWith: [],
    operands: ['HEAD'],
    permutes: true,
  },
  {
    command: 'git log',
    long: '--output',
    abbreviateFrom: 5,
    value: 'required',
    example: '/tmp/out',
    clusterWith: [],
    operands: ['HEAD'],
    permutes: true,
  },
  {
    command: 'sed',
    long: '--in-place',
    abbreviateFrom: 4,
    short: '-i',
    value: 'optional',
    example: '.bak',
    clusterWith: ['n', 'E', 's', 'u', 'z'],
    operands: ['s/a/b/', 'f'],
    permutes: true,
  },
  {
    command: 'tar',
    long: '--to-command',
    abbreviateFrom: 6,
    value: 'required',
    example: 'sh',
    clusterWith: [],
    operands: [],
    permutes: true,
  },
  {
    command: 'tar',
    long: '--use-compress-program',
    abbreviateFrom: 5,
    short: '-I',
    value: 'required',
    example: 'sh',
    clusterWith: ['c', 'v'],
    operands: ['.'],
    permutes: true,
  },
  {
    command: 'tar',
    long: '--checkpoint-action',
    abbreviateFrom: 13,
    value: 'required',
    example: 'exec=sh',
    clusterWith: [],
    operands: ['.'],
    permutes: true,
  },
  {
    command: 'rsync',
    long: '--rsh',
    short: '-e',
    value: 'required',
    example: 'sh',
    clusterWith: ['a', 'v', 'z', 'r'],
    operands: ['src/', 'dst/'],
    permutes: true,
  },
  {
    command: 'curl',
    long: '--output',
    abbreviateFrom: 5,
    short: '-o',
    value: 'required',
    example: '/tmp/x',
    clusterWith: ['s', 'S', 'L', 'f'],
    operands: ['https://example.com'],
    permutes: true,
  },
  {
    command: 'wget',
    long: '--output-document',
    abbreviateFrom: 9,
    short: '-O',
    value: 'required',
    example: '/tmp/x',
    clusterWith: ['q', 'c'],
    operands: ['https://example.com'],
    permutes: true,
  },
  {
    command: 'npm',
    long: '--script-shell',
    abbreviateFrom: 5,
    value: 'required',
    example: '/tmp/evil',
    clusterWith: [],
    operands: ['run', 'build'],
    permutes: true,
  },
  {
    command: 'python3',
    short: '-c',
    value: 'required',
    example: 'pass',
    clusterWith: ['B', 'u', 'I', 's', 'S', 'E'],
    operands: [],
    permutes: false,
  },
  {
    command: 'sort',
    long: '--output',
    abbreviateFrom: 5,
    short: '-o',
    value: 'required',
    example: '/tmp/x',
    clusterWith: ['u', 'r', 'n', 'f'],
    operands: ['f'],
    permutes: true,
  },
  {
    command: 'make',
    long: '--directory',
    abbreviateFrom: 5,
    short: '-C',
    value: 'required',
    example: '/tmp/other',
    clusterWith: ['s', 'k', 'B'],
    operands: ['all'],
    permutes: true,
  },
  {
    command: 'perl',
    short: '-e',
    value: 'required',
    example: 'print',
    clusterWith: ['n', 'p', 'l', 'a', 'w'],
    operands: [],
    permutes: false,
  },
  {
    command: 'ruby',
    short: '-e',
    value: 'required',
    example: 'puts',
    clusterWith: ['n', 'p', 'l', 'a', 'w'],
    operands: [],
    permutes: false,
  },
];

/** Ways to quote one shell word so that bash unquotes it to the same text. */
const quoting = fc.constantFrom(
  (word: string) => word,
  (word: string) => `'${word}'`,
  (word: string) => `"${word}"`,
  (word: string) => (word.length > 2 ? `${word.slice(0, 2)}'${word.slice(2)}'` : word),
  (word: string) => (word.length > 1 && /[a-z]/.test(word[1] ?? '') ? `${word[0]}\\${word.slice(1)}` : word),
);

const shellQuote = (text: string) => (/^[A-Za-z0-9_./:=@,+-]*$/.test(text) && text !== '' ? text : `'${text}'`);

/** Every spelling of one option the program would read as that option: a list of words. */
function spellings(option: RiskyOption): fc.Arbitrary<string[]> {
  const choices: fc.Arbitrary<string[]>[] = [];
  const value = shellQuote(option.example);
  if (option.long) {
    const { long } = option;
    const name =
      option.abbreviateFrom === undefined
        ? fc.constant(long)
        : fc.integer({ min: option.abbreviateFrom, max: long.length }).map((length) => long.slice(0, length));
    if (option.value === 'required') {
      choices.push(name.map((n) => [`${n}=${value}`]));
      choices.push(name.map((n) => [n, value]));
    } else if (option.value === 'optional') {
      choices.push(name.map((n) => [`${n}=${value}`]));
      choices.push(name.map((n) => [n]));
    } else choices.push(name.map((n) => [n]));
  }
  if (option.short) {
    const letter = option.short.slice(1);
    const cluster = fc.subarray(option.clusterWith).map((letters) => `-${letters.join('')}${letter}`);
    if (option.value === 'required') {
      choices.push(cluster.map((word) => [word, value]));
      if (option.command !== 'node') choices.push(cluster.map((word) => [`${word}${option.example}`]));
    } else if (option.value === 'optional') {
      choices.push(cluster.map((word) => [`${word}${option.example}`]));
      choices.push(cluster.map((word) => [word]));
    } else choices.push(cluster.map((word) => [word]));
  }
  return fc.oneof(...choices);
}

const prefix = fc.constantFrom('', 'LANG=C ', 'nohup ', 'timeout 5 ', 'nice -n 5 ', 'LC_ALL=C TZ=UTC ');

const invocation = fc
  .constantFrom(...catalogue)
  .chain((option) =>
    fc.record({
      option: fc.constant(option),
      words: spellings(option),
      quote: quoting,
      after: option.permutes && option.operands.length > 0 ? fc.boolean() : fc.constant(false),
      prefix,
    }),
  )
  .map(({ option, words, quote, after, prefix: start }) => {
    const [first, ...rest] = words;
    const optionWords = [quote(first ?? ''), ...rest].join(' ');
    const operands = option.operands.join(' ');
    const body = after ? `${operands} ${optionWords}` : `${optionWords} ${operands}`;
    return `${start}${option.command} ${body}`.trim();
  });

describe('risky options in any spelling the program accepts', () => {
  it('are never allowed by a bare allowlist entry', () => {
    fc.assert(
      fc.property(invocation, (command) => {
        const result = checker.check(command, bare, where);
        expect(result.decision, `${command}\n${JSON.stringify(result.reasons)}`).toBe('ask');
        expect(
          result.reasons.some((reason) => reason.code === 'risky-arguments'),
          command,
        ).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('everyday options in any order', () => {
  const gitLog = fc
    .subarray([
      '--oneline',
      '-n 5',
      '--stat',
      '-p',
      '--graph',
      '--all',
      '--decorate',
      '--author=me',
      '--since yesterday',
      '-5',
      '--no-ext-diff',
    ])
    .chain((options) => fc.shuffledSubarray(options, { minLength: options.length }));
  it('keep git log allowed', () => {
    fc.assert(
      fc.property(gitLog, (options) => {
        const command = `git log ${options.join(' ')}`;
        expect(checker.check(command, bare, where).decision, command).toBe('allow');
      }),
      { numRuns: 300 },
    );
  });
});
