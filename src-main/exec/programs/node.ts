import {
  type Grammar,
  nodeOptions,
  type OptionDef,
  type OptionRisk,
  optionRisks,
  parseArguments,
  positionalsOf,
} from './option-grammar.js';
import { network, runsCode, writesValue } from './option-risks.js';
import { isOutside, type ProgramKnowledge, risk, scriptElsewhere } from './program-knowledge.js';

const builtinReporters = new Set(['spec', 'tap', 'dot', 'junit', 'lcov']);

const debuggerRisk: OptionRisk = (use) => {
  const where = use.value?.text;
  const everyInterface = where !== undefined && /^(0\.0\.0\.0|\[?::\]?)(:|$)/.test(where);
  return risk(
    'runs-code',
    use.spelled,
    `${use.name} opens a debugger port${where ? ` at ${where}` : ''}${everyInterface ? ' on every network interface' : ''}; whoever reaches it can run any code in the process`,
  );
};

/**
 * node's own options (node_options.cc). Valued options must be marked: a value
 * option read as a flag would turn its value into "the script" and hide what follows.
 */
const options: OptionDef[] = [
  { names: ['-e', '--eval'], value: 'required', risk: runsCode('runs the JavaScript given on the command line') },
  {
    names: ['-p', '--print'],
    value: 'required',
    risk: runsCode('runs (and prints) the JavaScript given on the command line'),
  },
  { names: ['-r', '--require'], value: 'required', risk: runsCode('loads a module before the script: its code runs') },
  { names: ['--import'], value: 'required', risk: runsCode('loads a module before the script: its code runs') },
  {
    names: ['--loader', '--experimental-loader'],
    value: 'required',
    risk: runsCode('installs a module loader (a file or data: URL): its code runs and rewrites every import'),
  },
  {
    names: ['--env-file', '--env-file-if-exists'],
    value: 'required',
    risk: runsCode('loads variables such as NODE_OPTIONS from a file'),
  },
  {
    names: ['--experimental-config-file'],
    value: 'required',
    risk: runsCode('reads node options (such as --require) from a file'),
  },
  {
    names: ['--experimental-default-config-file'],
    risk: runsCode('reads node options (such as --require) from node.config.json'),
  },
  {
    names: ['--openssl-config'],
    value: 'required',
    risk: runsCode('loads an OpenSSL config, which can load engines (native code)'),
  },
  {
    names: ['--inspect', '--inspect-brk', '--inspect-wait', '--inspect-brk-node'],
    value: 'optional',
    risk: debuggerRisk,
  },
  { names: ['--inspect-port', '--debug-port'], value: 'required', risk: debuggerRisk },
  { names: ['-i', '--interactive'], risk: runsCode('starts a REPL that runs whatever is typed or piped into it') },
  { names: ['--experimental-network-imports'], risk: network('lets the script import code over the network') },
  { names: ['--redirect-warnings'], value: 'required', risk: writesValue() },
  { names: ['--tls-keylog'], value: 'required', risk: writesValue('writes TLS secrets') },
  { names: ['--test-reporter-destination'], value: 'required', risk: writesValue() },
  {
    names: ['--diagnostic-dir', '--report-dir', '--report-directory', '--cpu-prof-dir', '--heap-prof-dir'],
    value: 'required',
    risk: writesValue('writes reports'),
  },
  { names: ['--localstorage-file', '--snapshot-blob'], value: 'required', risk: writesValue() },
  {
    names: ['--test-reporter'],
    value: 'required',
    risk: (use) =>
      use.value && !builtinReporters.has(use.value.text)
        ? risk('runs-code', use.spelled, `${use.name} ${use.value.text} loads a reporter module: its code runs`)
        : undefined,
  },
  // Harmless, but valued: listed so their values are not mistaken for the script.
  ...[
    '-C',
    '--conditions',
    '--input-type',
    '--title',
    '--report-filename',
    '--report-signal',
    '--cpu-prof-name',
    '--cpu-prof-interval',
    '--heap-prof-name',
    '--heap-prof-interval',
    '--icu-data-dir',
    '--unhandled-rejections',
    '--dns-result-order',
    '--experimental-default-type',
    '--watch-path',
    '--watch-kill-signal',
    '--test-name-pattern',
    '--test-skip-pattern',
    '--test-concurrency',
    '--test-timeout',
    '--test-shard',
    '--test-isolation',
    '--test-coverage-include',
    '--test-coverage-exclude',
    '--test-coverage-branches',
    '--test-coverage-functions',
    '--test-coverage-lines',
    '--secure-heap',
    '--secure-heap-min',
    '--heapsnapshot-signal',
    '--heapsnapshot-near-heap-limit',
    '--trace-event-categories',
    '--trace-event-file-pattern',
    '--disable-warning',
    '--experimental-sea-config',
    '--max-http-header-size',
    '--es-module-specifier-resolution',
    '--experimental-policy',
    '--policy-integrity',
    '--use-largepages',
    '--tls-cipher-list',
    '--run',
    '--stack-trace-limit',
  ].map((name): OptionDef => ({ names: [name], value: 'required' })),
];

export const nodeGrammar: Grammar = { convention: nodeOptions, options };

/** Script names that read the program from stdin (a pipe, heredoc or here-string the agent wrote). */
const stdinScript = /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(self|\d+)\/fd\/\d+)$/;

/**
 * node (and nodejs): a script inside the workspace is the project's code and stays
 * allowed on a bare entry; code from the command line, preloads, loaders, the
 * debugger and stdin programs are asked.
 */
export const node: ProgramKnowledge = {
  names: ['node', 'nodejs'],
  assess(args, context) {
    const { readings } = parseArguments(args, nodeGrammar);
    return readings.flatMap((tokens) => {
      const risks = optionRisks(tokens, context);
      const script = positionalsOf(tokens)[0];
      if (script && stdinScript.test(script.word.text))
        risks.push(risk('runs-code', script.word.text, `node ${script.word.text} runs a program read from stdin`));
      else if (script && /^(data|https?):/i.test(script.word.text))
        risks.push(risk('runs-code', script.word.text, 'node runs code from a URL given on the command line'));
      else if (script && isOutside(script.word, context)) risks.push(scriptElsewhere('node', script.word));
      return risks;
    });
  },
};
