import { type Grammar, noptOptions, optionRisks, parseArguments, positionalsOf, usesOf } from './option-grammar.js';
import { folderOutside, runsCode } from './option-risks.js';
import { type ProgramKnowledge, type Risk, type RiskKind, risk } from './program-knowledge.js';

/**
 * pnpm, yarn and bun: the same judgement as npm (npm.ts). Their `<name>` shortcut
 * runs a script *or any program* (node_modules/.bin, then PATH), so an unknown
 * command is asked.
 */
interface Manager {
  projectScripts: string[];
  read: string[];
  effects: { kind: RiskKind; detail: string; commands: string[] }[];
  /** What a bare invocation does (`yarn` alone installs). */
  bare?: { kind: RiskKind; detail: string };
}

const installs = 'downloads packages and runs their install scripts';
const runsPackages = 'runs a package\u2019s program, downloading it if it is not installed';
const registry = 'changes what the registry holds or your account there';

const managers: Record<string, Manager> = {
  pnpm: {
    projectScripts: ['run', 'run-script', 'test', 't', 'tst', 'start', 'restart', 'stop'],
    read: [
      'list',
      'ls',
      'll',
      'la',
      'why',
      'root',
      'bin',
      'help',
      'licenses',
      'store',
      'prune',
      'remove',
      'rm',
      'uninstall',
      'un',
      'unlink',
      'pack',
      'init',
    ],
    effects: [
      { kind: 'runs-code', detail: runsPackages, commands: ['exec', 'dlx', 'create', 'x'] },
      {
        kind: 'runs-code',
        detail: installs,
        commands: [
          'install',
          'i',
          'add',
          'update',
          'up',
          'upgrade',
          'rebuild',
          'rb',
          'link',
          'ln',
          'import',
          'fetch',
          'dedupe',
          'install-test',
          'it',
          'patch',
          'patch-commit',
          'deploy',
          'setup',
          'env',
          'self-update',
        ],
      },
      {
        kind: 'network',
        detail: 'talks to the registry',
        commands: ['audit', 'outdated', 'view', 'info', 'search', 'ping', 'server'],
      },
      {
        kind: 'publishes',
        detail: registry,
        commands: ['publish', 'login', 'logout', 'adduser', 'dist-tag', 'deprecate', 'unpublish'],
      },
      {
        kind: 'runs-code',
        detail: 'writes pnpm configuration, which can name programs to run',
        commands: ['config', 'c', 'set'],
      },
    ],
  },
  yarn: {
    projectScripts: ['run', 'test', 'start'],
    read: [
      'list',
      'why',
      'bin',
      'help',
      'licenses',
      'versions',
      'workspaces',
      'remove',
      'unlink',
      'pack',
      'init',
      'constraints',
      'explain',
    ],
    bare: { kind: 'runs-code', detail: `yarn on its own installs: it ${installs}` },
    effects: [
      { kind: 'runs-code', detail: runsPackages, commands: ['dlx', 'exec', 'create', 'node', 'workspace', 'global'] },
      {
        kind: 'runs-code',
        detail: installs,
        commands: [
          'install',
          'add',
          'up',
          'upgrade',
          'upgrade-interactive',
          'rebuild',
          'link',
          'import',
          'dedupe',
          'patch',
          'patch-commit',
          'set',
          'plugin',
        ],
      },
      {
        kind: 'network',
        detail: 'talks to the registry',
        commands: ['audit', 'outdated', 'info', 'npm', 'search', 'cache'],
      },
      {
        kind: 'publishes',
        detail: registry,
        commands: ['publish', 'login', 'logout', 'owner', 'tag', 'team', 'version'],
      },
      {
        kind: 'runs-code',
        detail: 'writes yarn configuration, which can name programs to run',
        commands: ['config', 'policies'],
      },
    ],
  },
  bun: {
    projectScripts: ['run', 'test'],
    read: ['pm', 'help', 'remove', 'rm', 'init', 'build', 'outdated'],
    effects: [
      { kind: 'runs-code', detail: runsPackages, commands: ['x', 'exec', 'create', 'c', 'repl'] },
      {
        kind: 'runs-code',
        detail: installs,
        commands: ['install', 'i', 'add', 'a', 'update', 'link', 'upgrade', 'patch'],
      },
      { kind: 'publishes', detail: registry, commands: ['publish'] },
    ],
  },
};

const grammar: Grammar = {
  convention: noptOptions,
  options: [
    {
      names: ['-C', '--dir', '--cwd', '--prefix'],
      value: 'required',
      risk: folderOutside('the package manager then runs the scripts of a package outside the working folder'),
    },
    { names: ['--shell-emulator'] },
    { names: ['--script-shell'], value: 'required', risk: runsCode('runs every package script with this shell') },
    {
      names: ['-e', '--eval', '-p', '--print'],
      value: 'required',
      risk: runsCode('runs the JavaScript given on the command line'),
    },
    {
      names: ['-r', '--require', '--preload', '--import'],
      value: 'required',
      risk: runsCode('loads a module before the script: its code runs'),
    },
    { names: ['-g', '--global'] },
    {
      names: [
        '-F',
        '--filter',
        '--workspace',
        '-w',
        '--reporter',
        '--loglevel',
        '--registry',
        '--tag',
        '--otp',
        '--access',
      ],
      value: 'required',
    },
  ],
};

function managerKnowledge(name: string, manager: Manager): ProgramKnowledge {
  const effectOf = new Map<string, { kind: RiskKind; detail: string }>();
  for (const effect of manager.effects) for (const command of effect.commands) effectOf.set(command, effect);
  return {
    names: [name],
    assess(args, context) {
      return parseArguments(args, grammar).readings.flatMap((tokens) => {
        const risks: Risk[] = optionRisks(tokens, context);
        const first = positionalsOf(tokens).find((token) => !token.afterOptions);
        const global = usesOf(tokens, ['-g', '--global']).length > 0;
        if (!first) {
          if (
            manager.bare &&
            !tokens.some((token) => token.kind === 'option' && /^(-v|--version|-h|--help)$/.test(token.use.name))
          )
            risks.push(risk(manager.bare.kind, [], manager.bare.detail));
          return risks;
        }
        const command = first.word.text;
        const effect = effectOf.get(command);
        if (effect) risks.push(risk(effect.kind, command, `${name} ${command} ${effect.detail}`));
        else if (name === 'bun' && /\.(m?[jt]sx?|cjs|cts)$/.test(command)) {
          // `bun file.ts` runs a script, like node.
        } else if (!manager.projectScripts.includes(command) && !manager.read.includes(command))
          risks.push(
            risk(
              'runs-code',
              command,
              `${name} ${command} runs a script of that name, or else a program from node_modules/.bin or PATH`,
            ),
          );
        if (global && effect)
          risks.push(risk('writes-outside', '-g', `${name} ${command} -g changes the global packages`));
        return risks;
      });
    },
  };
}

export const pnpm = managerKnowledge('pnpm', managers.pnpm as Manager);
export const yarn = managerKnowledge('yarn', managers.yarn as Manager);
export const bun = managerKnowledge('bun', managers.bun as Manager);
