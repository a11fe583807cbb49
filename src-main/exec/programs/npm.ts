import type { ShellWord } from '../shell-words.js';
import {
  type ArgToken,
  type Grammar,
  noptOptions,
  type OptionDef,
  optionRisks,
  parseArguments,
  positionalsOf,
  usesOf,
} from './option-grammar.js';
import { folderOutside, runsCode, writesValue } from './option-risks.js';
import { type ProgramContext, type ProgramKnowledge, type Risk, type RiskKind, risk } from './program-knowledge.js';

/**
 * npm's configuration keys that matter, as nopt reads them (anywhere on the line,
 * abbreviated, `--key=value` or `--key value`). Keys that take values are listed so
 * their value is not taken for the command.
 */
const options: OptionDef[] = [
  { names: ['--script-shell'], value: 'required', risk: runsCode('runs every package script with this shell') },
  { names: ['--shell'], value: 'required', risk: runsCode('runs this shell for npm exec/explore') },
  {
    names: ['--node-options'],
    value: 'required',
    risk: runsCode('passes NODE_OPTIONS (such as --require) to every script'),
  },
  {
    names: ['--userconfig', '--globalconfig'],
    value: 'required',
    risk: runsCode('reads configuration (such as script-shell) from another file'),
  },
  {
    names: ['--editor', '--browser', '--viewer', '--git'],
    value: 'required',
    risk: runsCode('names a program npm runs'),
  },
  { names: ['--init-module'], value: 'required', risk: runsCode('runs this JavaScript file for npm init') },
  { names: ['-c', '--call'], value: 'required', risk: runsCode('runs this command with npm exec') },
  {
    names: ['-C', '--prefix'],
    value: 'required',
    risk: folderOutside('npm then runs the scripts and installs of a package outside the working folder'),
  },
  { names: ['--cache', '--logs-dir', '--pack-destination'], value: 'required', risk: writesValue() },
  { names: ['-g', '--global'] },
  { names: ['--location', '-L'], value: 'required' },
  ...[
    '-w',
    '--workspace',
    '--registry',
    '--tag',
    '--otp',
    '--access',
    '--loglevel',
    '--omit',
    '--include',
    '--install-strategy',
    '--depth',
    '--before',
    '--cafile',
    '--ca',
    '--cert',
    '--key',
    '--proxy',
    '--https-proxy',
    '--noproxy',
    '--scope',
    '--preid',
    '-m',
    '--message',
    '--package',
    '--which',
    '--auth-type',
    '--fetch-retries',
    '--fetch-timeout',
    '--user-agent',
    '--umask',
    '--diff',
    '--searchopts',
    '--searchexclude',
    '--os',
    '--cpu',
    '--libc',
    '--logs-max',
    '--maxsockets',
    '--local-address',
    '--replace-registry-host',
    '--expect-result-count',
    '--init-author-name',
    '--init-author-email',
    '--init-author-url',
    '--init-license',
    '--init-version',
  ].map((name): OptionDef => ({ names: [name], value: 'required' })),
  ...[
    '-D',
    '--save-dev',
    '-S',
    '--save',
    '-O',
    '--save-optional',
    '-E',
    '--save-exact',
    '-P',
    '--save-prod',
    '-B',
    '--save-bundle',
    '--save-peer',
    '-f',
    '--force',
    '-y',
    '--yes',
    '-s',
    '--silent',
    '-q',
    '--quiet',
    '-d',
    '--verbose',
    '-l',
    '--long',
    '-p',
    '--parseable',
    '-a',
    '--all',
    '-h',
    '--usage',
    '-v',
    '--version',
    '--json',
    '--dry-run',
    '--if-present',
    '--ignore-scripts',
    '--foreground-scripts',
    '--legacy-peer-deps',
    '--strict-peer-deps',
    '--audit',
    '--fund',
    '--offline',
    '--prefer-offline',
    '--prefer-online',
    '--package-lock',
    '--package-lock-only',
    '--production',
    '--workspaces',
    '--include-workspace-root',
    '--color',
    '--progress',
    '--unicode',
    '--timing',
    '--link',
    '--install-links',
    '--global-style',
    '--provenance',
    '--bin-links',
    '--engine-strict',
    '--sign-git-tag',
    '--git-tag-version',
    '--commit-hooks',
    '--heading',
  ].map((name): OptionDef => ({ names: [name] })),
];

const grammar: Grammar = { convention: noptOptions, options };

type Effect = { kind: RiskKind; detail: string } | 'project-scripts' | 'read' | 'modifies';

const effects: Record<string, Effect> = {};
const define = (names: string, effect: Effect) => {
  for (const name of names.split(/\s+/)) effects[name] = effect;
};
// The project's own package.json scripts: the project's code, like `node script.js` (see docs/EXEC.md).
define('run run-script rum urn test tst t start stop restart', 'project-scripts');
define(
  'ls list ll la root prefix bin help help-search explain why query fund sbom completion version pkg prune uninstall remove rm r un unlink shrinkwrap pack',
  'read',
);
define('exec x', { kind: 'runs-code', detail: 'runs a package\u2019s program, downloading it if it is not installed' });
define('explore', { kind: 'runs-code', detail: 'runs a shell command inside an installed package' });
define('edit', { kind: 'runs-code', detail: 'opens an installed package in an editor' });
define('create', { kind: 'runs-code', detail: 'downloads and runs a create-<name> package' });
define(
  'install i in ins inst insta instal isnt isnta isntal isntall add ci clean-install ic install-clean isntall-clean install-test it install-ci-test cit update up upgrade udpate rebuild rb dedupe ddp link ln',
  { kind: 'runs-code', detail: 'downloads packages and runs their install scripts' },
);
define('audit outdated view v info show search find s se ping doctor diff whoami repo docs home bugs issues cache', {
  kind: 'network',
  detail: 'talks to the registry (or opens a browser)',
});
define(
  'publish unpublish deprecate undeprecate dist-tag dist-tags owner author access team org star unstar stars hook token profile login logout adduser add-user',
  {
    kind: 'publishes',
    detail: 'changes what the registry holds or your account there',
  },
);
define('config c set get', 'modifies');
effects.init = 'read';
effects.innit = 'read';

/** The command of one reading, resolving npm's own abbreviations (`npm pub` is publish). */
function commandOf(name: string): { name: string; effect: Effect } | undefined {
  const exact = effects[name];
  if (exact) return { name, effect: exact };
  const prefixed = Object.keys(effects)
    .filter((candidate) => candidate.startsWith(name))
    .sort((a, b) => weight(effects[b]) - weight(effects[a]));
  const chosen = prefixed[0];
  return chosen ? { name: chosen, effect: effects[chosen] as Effect } : undefined;
}

function weight(effect: Effect | undefined): number {
  if (typeof effect !== 'object') return effect === 'modifies' ? 2 : 0;
  return { 'runs-code': 4, publishes: 4, 'writes-outside': 2, 'writes-files': 2, network: 1 }[effect.kind];
}

const modifying = new Set(['runs-code', 'publishes']);

export function npmRisks(args: readonly ShellWord[], context: ProgramContext): Risk[] {
  return parseArguments(args, grammar).readings.flatMap((tokens) => {
    const risks: Risk[] = optionRisks(tokens, context);
    const [first, ...rest] = positionalsOf(tokens).filter((token) => !token.afterOptions);
    if (!first) return risks;
    const spelled = first.word.text;
    const command = commandOf(spelled);
    if (!command) {
      risks.push(risk('runs-code', spelled, `${spelled} is not an npm command`));
      return risks;
    }
    const global = usesOf(tokens, ['-g', '--global']).length > 0 || locationIsGlobal(tokens);
    const effect = command.effect;
    if (typeof effect === 'object') {
      risks.push(
        risk(
          effect.kind,
          spelled,
          `${spelled === command.name ? '' : `(npm reads ${spelled} as ${command.name}) `}${effect.detail}`,
        ),
      );
      if (global && modifying.has(effect.kind))
        risks.push(
          risk(
            'writes-outside',
            ['-g'],
            `npm ${command.name} -g changes the global packages, outside the working folder`,
          ),
        );
    } else if (effect === 'project-scripts' && global) {
      risks.push(
        risk(
          'runs-code',
          ['-g'],
          `npm ${command.name} -g runs the scripts of the global folder, outside the working folder`,
        ),
      );
    } else if (effect === 'modifies') {
      const action = rest[0]?.word.text;
      const reads =
        command.name === 'get' ||
        (command.name !== 'set' && (action === undefined || ['get', 'list', 'ls'].includes(action)));
      if (!reads)
        risks.push(
          risk(
            'runs-code',
            [spelled, ...(action ? [action] : [])],
            `npm ${command.name} ${action ?? ''} writes npm configuration (script-shell, registry…), which can run programs`.replace(
              '  ',
              ' ',
            ),
          ),
        );
    } else if (effect === 'read' && (command.name === 'init' || command.name === 'innit') && rest.length > 0) {
      const initializer = rest[0]?.word.text ?? '';
      if (!initializer.startsWith('-'))
        risks.push(
          risk('runs-code', [spelled, initializer], `npm init ${initializer} downloads and runs a create-… package`),
        );
    } else if (
      effect === 'read' &&
      global &&
      ['uninstall', 'remove', 'rm', 'r', 'un', 'unlink', 'prune'].includes(command.name)
    ) {
      risks.push(
        risk(
          'writes-outside',
          ['-g'],
          `npm ${command.name} -g changes the global packages, outside the working folder`,
        ),
      );
    } else if (effect === 'read' && command.name === 'pack' && rest.length > 0) {
      risks.push(risk('network', spelled, 'npm pack <package> downloads the package'));
    }
    return risks;
  });
}

function locationIsGlobal(tokens: ArgToken[]): boolean {
  return usesOf(tokens, ['--location', '-L']).some((use) => use.value?.text === 'global');
}

/**
 * npm: a bare entry covers the project's own scripts (`npm test`, `npm run build`)
 * and reading; installing (dependencies' install scripts), exec, the registry,
 * publishing, configuration and global changes are asked.
 */
export const npm: ProgramKnowledge = { names: ['npm'], assess: (args, context) => npmRisks(args, context) };

/** npx always runs a package's program, fetching it from the registry when it is not installed. */
export const npx: ProgramKnowledge = {
  names: ['npx'],
  assess(args, context) {
    return parseArguments(args, grammar).readings.flatMap((tokens) => {
      const risks = optionRisks(tokens, context);
      const program = positionalsOf(tokens)[0];
      const called = usesOf(tokens, ['-c', '--call']).length > 0;
      if (program && !called)
        risks.push(
          risk(
            'runs-code',
            program.word.text,
            `npx ${program.word.text} runs that package\u2019s program, downloading it if it is not installed`,
          ),
        );
      return risks;
    });
  },
};
