import type { ShellWord } from '../shell-words.js';
import {
  type ArgToken,
  type Grammar,
  gitGlobalOptions,
  gitParseOptions,
  type OptionDef,
  optionRisks,
  parseArguments,
  positionalsOf,
  usesOf,
} from './option-grammar.js';
import { always, folderOutside, network, runsCode, writesValue } from './option-risks.js';
import {
  isOutside,
  type ProgramContext,
  type ProgramKnowledge,
  type Risk,
  risk,
  within,
  writeRisk,
} from './program-knowledge.js';

const otherRepository = 'git then reads that repository\u2019s config and hooks, which can run programs';

/** git.c handle_options: exact names, `--opt=value` or `--opt value`, no clusters, end at the subcommand. */
const globalGrammar: Grammar = {
  convention: gitGlobalOptions,
  options: [
    {
      names: ['-c'],
      value: 'required',
      risk: runsCode(
        'sets configuration for this run (core.pager, core.sshCommand, an alias…), which can run any program',
      ),
    },
    {
      names: ['--config-env'],
      value: 'required',
      risk: runsCode('sets configuration from a variable (core.pager, an alias…), which can run any program'),
    },
    {
      names: ['--exec-path'],
      value: 'optional',
      risk: (use) =>
        risk(
          'runs-code',
          use.spelled,
          use.value
            ? `--exec-path makes git run its helper programs from ${use.value.text}`
            : '--exec-path names the folder git runs its helper programs from',
        ),
    },
    { names: ['-C'], value: 'required' },
    { names: ['--git-dir'], value: 'required', risk: folderOutside(otherRepository) },
    {
      names: ['--work-tree'],
      value: 'required',
      risk: folderOutside('git then reads and writes files outside the working folder'),
    },
    { names: ['--namespace', '--attr-source', '--list-cmds', '--super-prefix'], value: 'required' },
    ...[
      '-p',
      '--paginate',
      '-P',
      '--no-pager',
      '--bare',
      '--no-replace-objects',
      '--literal-pathspecs',
      '--glob-pathspecs',
      '--noglob-pathspecs',
      '--icase-pathspecs',
      '--no-optional-locks',
      '--no-lazy-fetch',
      '--no-advice',
      '--html-path',
      '--man-path',
      '--info-path',
      '-v',
      '--version',
      '-h',
      '--help',
    ].map((name): OptionDef => ({ names: [name] })),
  ],
};

interface Subcommand {
  options?: OptionDef[];
  /** The subcommand itself carries this risk. */
  kind?: 'runs-code' | 'network' | 'publishes';
  detail?: string;
  /** Risks that depend on positionals (git config writes, git bisect run, worktree paths…). */
  assess?: (tokens: ArgToken[], context: ProgramContext) => Risk[];
}

const diffOptions: OptionDef[] = [
  { names: ['--ext-diff'], risk: runsCode('runs the external diff program named in the configuration') },
  { names: ['--textconv'], risk: runsCode('runs the text-conversion filters named in the configuration') },
  { names: ['--output'], value: 'required', risk: writesValue('writes the diff') },
];

const remoteHelpers: OptionDef[] = [
  { names: ['--upload-pack', '-u'], value: 'required', risk: runsCode('runs this program instead of git-upload-pack') },
  { names: ['--receive-pack'], value: 'required', risk: runsCode('runs this program instead of git-receive-pack') },
  {
    names: ['--exec'],
    value: 'required',
    risk: runsCode('runs this program on the other end instead of git\u2019s own'),
  },
];

const builtinStrategies = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);
const strategyOption: OptionDef = {
  names: ['-s', '--strategy'],
  value: 'required',
  risk: (use) =>
    use.value && !builtinStrategies.has(use.value.text)
      ? risk('runs-code', use.spelled, `${use.name} ${use.value.text} runs the program git-merge-${use.value.text}`)
      : undefined,
};

const networkSub = (detail: string): Subcommand => ({ kind: 'network', detail, options: remoteHelpers });

/** Positionals after the subcommand name. */
const operands = (tokens: ArgToken[]) => positionalsOf(tokens);

const subcommands: Record<string, Subcommand> = {
  clone: {
    kind: 'network',
    detail: 'copies a repository, usually over the network',
    options: [
      ...remoteHelpers,
      {
        names: ['-c', '--config'],
        value: 'required',
        risk: runsCode('sets configuration in the new repository (core.fsmonitor, hooks…), which can run any program'),
      },
      {
        names: ['--template'],
        value: 'required',
        risk: runsCode('copies hooks from a template folder into the new repository'),
      },
      { names: ['--separate-git-dir'], value: 'required', risk: writesValue('puts the repository') },
      {
        names: [
          '-o',
          '--origin',
          '-b',
          '--branch',
          '--depth',
          '--reference',
          '--reference-if-able',
          '--shallow-since',
          '--shallow-exclude',
          '--filter',
          '-j',
          '--jobs',
          '--bundle-uri',
          '--server-option',
          '--ref-format',
        ],
        value: 'required',
      },
    ],
    assess: (tokens, context) => {
      const target = operands(tokens)[1];
      const written = target && writeRisk(target.word, context, target.word.text, 'git clone writes the repository');
      return written ? [written] : [];
    },
  },
  fetch: networkSub('downloads from a remote repository'),
  pull: { ...networkSub('downloads from a remote repository and merges'), options: [...remoteHelpers, strategyOption] },
  push: { kind: 'publishes', detail: 'uploads commits to a remote repository', options: remoteHelpers },
  'ls-remote': networkSub('asks a remote repository for its refs'),
  'fetch-pack': networkSub('downloads from a remote repository'),
  'send-pack': { kind: 'publishes', detail: 'uploads to a remote repository', options: remoteHelpers },
  'http-fetch': networkSub('downloads over HTTP'),
  'http-push': { kind: 'publishes', detail: 'uploads over HTTP' },
  'upload-archive': networkSub('serves an archive to another process'),
  backfill: networkSub('downloads missing objects'),
  'request-pull': networkSub('asks a remote repository for its refs'),
  'send-email': {
    kind: 'publishes',
    detail: 'sends patches by e-mail',
    options: [
      {
        names: ['--smtp-server'],
        value: 'required',
        risk: (use) =>
          use.value?.text.startsWith('/')
            ? risk('runs-code', use.spelled, `--smtp-server ${use.value.text} runs that program to send mail`)
            : risk('network', use.spelled, '--smtp-server sends mail through that server'),
      },
      ...['--to-cmd', '--cc-cmd', '--header-cmd', '--sendmail-cmd'].map(
        (name): OptionDef => ({
          names: [name],
          value: 'required',
          risk: runsCode('runs this command to build the message'),
        }),
      ),
    ],
  },
  'imap-send': { kind: 'publishes', detail: 'uploads patches to an IMAP folder' },
  daemon: { kind: 'network', detail: 'serves repositories on the network' },
  instaweb: { kind: 'runs-code', detail: 'starts a web server (and a browser) for the repository' },
  svn: networkSub('talks to a Subversion server'),
  p4: networkSub('talks to a Perforce server'),
  cvsimport: networkSub('imports from a CVS server'),
  cvsserver: { kind: 'network', detail: 'serves the repository over the CVS protocol' },
  difftool: {
    kind: 'runs-code',
    detail: 'runs an external diff tool',
    options: [
      { names: ['-x', '--extcmd'], value: 'required', risk: runsCode('runs this command on every changed file') },
      { names: ['-t', '--tool'], value: 'required' },
    ],
  },
  mergetool: { kind: 'runs-code', detail: 'runs an external merge tool' },
  'filter-branch': {
    options: [
      ...[
        '--env-filter',
        '--tree-filter',
        '--index-filter',
        '--parent-filter',
        '--msg-filter',
        '--commit-filter',
        '--tag-name-filter',
        '--setup',
      ].map(
        (name): OptionDef => ({
          names: [name],
          value: 'required',
          risk: runsCode('runs this shell code for every commit'),
        }),
      ),
      { names: ['--subdirectory-filter', '--prune-empty', '--original', '-d'], value: 'required' },
    ],
  },
  rebase: {
    options: [
      { names: ['-x', '--exec'], value: 'required', risk: runsCode('runs this shell command after every commit') },
      strategyOption,
      { names: ['-X', '--strategy-option', '--onto', '-C', '--whitespace'], value: 'required' },
    ],
  },
  merge: {
    options: [
      strategyOption,
      { names: ['-X', '--strategy-option', '-m', '-F', '--file', '--into-name'], value: 'required' },
    ],
  },
  'cherry-pick': {
    options: [strategyOption, { names: ['-X', '--strategy-option', '-m', '--mainline'], value: 'required' }],
  },
  revert: { options: [strategyOption, { names: ['-X', '--strategy-option', '-m', '--mainline'], value: 'required' }] },
  bisect: {
    assess: (tokens) => {
      const action = operands(tokens)[0];
      return action?.word.text === 'run'
        ? [risk('runs-code', action.word.text, 'git bisect run runs the command given for every step')]
        : [];
    },
  },
  submodule: {
    options: [{ names: ['--reference', '--depth', '-b', '--branch', '--name', '-j', '--jobs'], value: 'required' }],
    assess: (tokens) => {
      const action = operands(tokens)[0];
      if (!action) return [];
      const text = action.word.text;
      if (text === 'foreach')
        return [risk('runs-code', text, 'git submodule foreach runs a shell command in every submodule')];
      if (['update', 'add', 'init', 'sync', 'set-url'].includes(text))
        return [risk('network', text, `git submodule ${text} can clone or fetch submodules from the network`)];
      return [];
    },
  },
  hook: {
    assess: (tokens) => {
      const action = operands(tokens)[0];
      return action?.word.text === 'run' ? [risk('runs-code', 'run', 'git hook run runs a hook program')] : [];
    },
  },
  shell: { kind: 'runs-code', detail: 'runs the commands given to it' },
  'web--browse': { kind: 'runs-code', detail: 'opens a web browser' },
  gui: { kind: 'runs-code', detail: 'starts the Tk GUI' },
  citool: { kind: 'runs-code', detail: 'starts the Tk GUI' },
  credential: { kind: 'runs-code', detail: 'runs credential helpers and prints stored passwords' },
  'credential-store': { kind: 'runs-code', detail: 'reads or writes stored passwords' },
  'credential-cache': { kind: 'runs-code', detail: 'reads or writes cached passwords' },
  'for-each-repo': { kind: 'runs-code', detail: 'runs a git command in every repository listed in the configuration' },
  help: {
    options: [
      { names: ['-w', '--web'], risk: runsCode('opens the manual in a web browser') },
      { names: ['-i', '--info'], risk: runsCode('opens the manual in an info viewer') },
    ],
  },
  archive: {
    options: [
      { names: ['--remote'], value: 'required', risk: network('fetches the archive from a remote repository') },
      { names: ['--exec'], value: 'required', risk: runsCode('runs this program on the remote end') },
      { names: ['-o', '--output'], value: 'required', risk: writesValue('writes the archive') },
      { names: ['--format', '--prefix', '--add-file', '--add-virtual-file'], value: 'required' },
    ],
  },
  'format-patch': {
    options: [
      { names: ['-o', '--output-directory'], value: 'required', risk: writesValue('writes the patches') },
      ...diffOptions,
    ],
  },
  bundle: {
    assess: (tokens, context) => {
      const [action, file] = operands(tokens);
      if (action?.word.text !== 'create' || !file) return [];
      const written = writeRisk(file.word, context, file.word.text, 'git bundle create writes');
      return written ? [written] : [];
    },
  },
  worktree: {
    assess: (tokens, context) => {
      const [action, path] = operands(tokens);
      if (action?.word.text !== 'add' && action?.word.text !== 'move') return [];
      const target = action.word.text === 'move' ? operands(tokens)[2] : path;
      const written =
        target &&
        writeRisk(target.word, context, target.word.text, `git worktree ${action.word.text} writes a checkout`);
      return written ? [written] : [];
    },
    options: [{ names: ['-b', '-B', '--reason'], value: 'required' }],
  },
  init: {
    options: [
      {
        names: ['--template'],
        value: 'required',
        risk: runsCode('copies hooks from a template folder into the repository'),
      },
      { names: ['--separate-git-dir'], value: 'required', risk: writesValue('puts the repository') },
      { names: ['-b', '--initial-branch', '--object-format', '--ref-format', '--shared'], value: 'required' },
    ],
    assess: (tokens, context) => {
      const folder = operands(tokens)[0];
      const written = folder && writeRisk(folder.word, context, folder.word.text, 'git init creates a repository');
      return written ? [written] : [];
    },
  },
  'checkout-index': {
    options: [{ names: ['--prefix'], value: 'required', risk: writesValue('writes the files') }],
  },
  apply: {
    options: [
      { names: ['--unsafe-paths'], risk: always('writes-outside', 'lets the patch write outside the working tree') },
      { names: ['--directory', '-p', '-C', '--exclude', '--include', '--whitespace'], value: 'required' },
    ],
  },
  'fast-export': {
    options: [{ names: ['--export-marks', '--import-marks'], value: 'required', risk: writesValue('writes marks') }],
  },
  'fast-import': {
    options: [{ names: ['--export-marks', '--import-marks'], value: 'required', risk: writesValue('writes marks') }],
  },
  'cat-file': {
    options: [{ names: ['--textconv', '--filters'], risk: runsCode('runs the filters named in the configuration') }],
  },
  grep: {
    options: [
      {
        names: ['-O', '--open-files-in-pager'],
        value: 'optional',
        risk: (use) =>
          risk(
            'runs-code',
            use.spelled,
            `${use.name} opens the matching files in ${use.value ? `the program ${use.value.text}` : 'the pager'}`,
          ),
      },
      { names: ['--textconv'], risk: runsCode('runs the text-conversion filters named in the configuration') },
      {
        names: [
          '-e',
          '-f',
          '--max-depth',
          '-m',
          '--max-count',
          '-A',
          '-B',
          '-C',
          '--context',
          '--after-context',
          '--before-context',
          '--threads',
          '--color',
        ],
        value: 'required',
      },
    ],
  },
  remote: {
    assess: (tokens) => {
      const action = operands(tokens)[0]?.word.text;
      if (action === 'update' || action === 'prune')
        return [risk('network', action, `git remote ${action} fetches from remote repositories`)];
      if (action === 'show' && !usesOf(tokens, ['-n']).length)
        return [risk('network', 'show', 'git remote show asks the remote repository for its refs')];
      return [];
    },
    options: [{ names: ['-n'] }, { names: ['-t', '-m', '--push'], value: 'required' }],
  },
  maintenance: {
    assess: (tokens) => {
      const action = operands(tokens)[0]?.word.text;
      return action && ['start', 'register', 'unregister', 'stop'].includes(action)
        ? [
            risk(
              'writes-outside',
              action,
              `git maintenance ${action} changes the global config and schedules background jobs`,
            ),
          ]
        : [];
    },
  },
  config: {
    options: [
      { names: ['--global', '--system'] },
      { names: ['-f', '--file', '--blob', '--type', '--default', '--comment'], value: 'required' },
      { names: ['-e', '--edit'], risk: runsCode('opens the configuration in an editor') },
    ],
    assess: (tokens) => configRisks(tokens),
  },
};

// Diff-like commands share the diff options.
for (const name of [
  'diff',
  'log',
  'show',
  'whatchanged',
  'diff-tree',
  'diff-files',
  'diff-index',
  'range-diff',
  'stash',
  'blame',
  'annotate',
])
  subcommands[name] = { options: diffOptions };

/** Revision options that always take a value, so `git log --author a --since b …` reads as one reading. */
const revisionValues: OptionDef = {
  names: [
    '--author',
    '--committer',
    '--since',
    '--until',
    '--after',
    '--before',
    '--grep',
    '--format',
    '--date',
    '-n',
    '--max-count',
    '--skip',
    '-S',
    '-G',
    '-L',
    '--diff-filter',
    '--encoding',
    '--glob',
    '--exclude',
  ],
  value: 'required',
};
for (const name of ['log', 'show', 'whatchanged']) subcommands[name] = { options: [...diffOptions, revisionValues] };

/** Every other builtin, and the usual scripts: no risk of their own beyond the global options. */
const plainSubcommands = new Set(
  `add am branch check-attr check-ignore check-mailmap check-ref-format checkout cherry clean column commit commit-graph
  commit-tree count-objects describe diagnose bugreport fmt-merge-msg for-each-ref fsck fsck-objects gc get-tar-commit-id
  hash-object index-pack init-db interpret-trailers ls-files ls-tree mailinfo mailsplit merge-base merge-file merge-index
  merge-tree mktag mktree multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune
  prune-packed read-tree reflog refs repack replace replay rerere reset restore rev-list rev-parse rm shortlog show-branch
  show-index show-ref sparse-checkout stage status stripspace switch symbolic-ref tag unpack-file unpack-objects
  update-index update-ref update-server-info var verify-commit verify-pack verify-tag version write-tree last-modified
  merge-recursive merge-ort merge-octopus merge-ours merge-resolve merge-subtree quiltimport archimport upload-pack
  receive-pack http-backend`.split(/\s+/),
);

const readOptions =
  /^--(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list|show-origin|show-scope|name-only|null)$/;
const writeOptions = /^--(add|replace-all|unset|unset-all|rename-section|remove-section)$/;
const writeActions = new Set(['set', 'unset', 'rename-section', 'remove-section', 'edit']);

/** git config writes (legacy `git config k v`, `--unset…`, or `set`/`unset`…): anything can be configured to run. */
function configRisks(tokens: ArgToken[]): Risk[] {
  const positionals = operands(tokens).map((token) => token.word.text);
  const options = tokens.flatMap((token) =>
    token.kind === 'option' ? token.candidates.flatMap((def) => def.names) : [],
  );
  const named = tokens.flatMap((token) => (token.kind === 'option' ? [token.use.name] : []));
  const action = positionals[0];
  const reading = [...options, ...named].some((name) => readOptions.test(name) || name === '-l');
  const writing =
    [...options, ...named].some((name) => writeOptions.test(name)) ||
    (action !== undefined && writeActions.has(action)) ||
    (!reading && action !== 'get' && action !== 'list' && positionals.length >= 2);
  return writing
    ? [
        risk(
          'runs-code',
          ['config', ...positionals.slice(0, 1)],
          'git config writes configuration, which can set an alias, pager or hook that runs programs',
        ),
      ]
    : [];
}

const unknownSubcommand = (name: string): Risk =>
  risk('runs-code', name, `${name} is not a git command: git would run an alias or a program git-${name} from PATH`);

/**
 * git: global options first (`-c`, `-C`, `--git-dir`, `--exec-path`…), then the
 * subcommand with its own parse-options grammar. Local work stays allowed; running
 * programs, talking to the network, publishing and writing outside the workspace
 * are asked.
 */
export const git: ProgramKnowledge = {
  names: ['git'],
  assess(args, context) {
    const risks: Risk[] = [];
    const global = parseArguments(args, globalGrammar);
    for (const tokens of global.readings) {
      risks.push(...optionRisks(tokens, context));
      let where = context;
      let unknownGlobal = false;
      for (const token of tokens) {
        if (token.kind !== 'option') continue;
        if (!token.def) unknownGlobal = true;
        if (token.use.name !== '-C' || !token.use.value) continue;
        if (isOutside(token.use.value, where))
          risks.push(risk('runs-code', token.use.spelled, `-C ${token.use.value.text}: ${otherRepository}`));
        where = within(where, token.use.value.text);
      }
      const sub = positionalsOf(tokens)[0];
      if (!sub) continue;
      if (unknownGlobal) {
        // git refuses unknown global options; a misreading here must not hide the subcommand.
        risks.push(risk('runs-code', sub.word.text, 'git options before the subcommand could not all be recognised'));
      }
      risks.push(...subcommandRisks(sub.word.text, args.slice(sub.index), where));
    }
    return risks;
  },
};

function subcommandRisks(name: string, words: readonly ShellWord[], context: ProgramContext): Risk[] {
  const sub = subcommands[name];
  if (!sub && !plainSubcommands.has(name)) return [unknownSubcommand(name)];
  const risks: Risk[] = [];
  if (sub?.kind) risks.push(risk(sub.kind, name, sub.detail ?? ''));
  const grammar: Grammar = { convention: gitParseOptions, options: sub?.options ?? [] };
  const parsed = parseArguments(words.slice(1), grammar);
  for (const tokens of parsed.readings) {
    risks.push(...optionRisks(tokens, context));
    if (sub?.assess) risks.push(...sub.assess(tokens, context));
  }
  // Shown as `git grep -Oless: …`, so the person sees which subcommand the option belongs to.
  return risks.map((found) => (found.spelled[0] === name ? found : { ...found, within: `git ${name}` }));
}
