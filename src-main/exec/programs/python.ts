import {
  type Grammar,
  interpreterGetopt,
  type OptionDef,
  optionRisks,
  parseArguments,
  positionalsOf,
  usesOf,
} from './option-grammar.js';
import { runsCode } from './option-risks.js';
import { pipRisks } from './pip.js';
import { isOutside, type ProgramKnowledge, type Risk, risk, scriptElsewhere } from './program-knowledge.js';

/** CPython's getopt: clustered letters (`-Bc code`, `-Im mod`), `-c` and `-m` end the options. */
const grammar: Grammar = {
  convention: interpreterGetopt,
  options: [
    {
      names: ['-c'],
      value: 'required',
      endsOptions: true,
      risk: runsCode('runs the Python code given on the command line'),
    },
    { names: ['-m'], value: 'required', endsOptions: true },
    { names: ['-W', '-X', '--check-hash-based-pycs'], value: 'required' },
    { names: ['-i'], risk: runsCode('starts an interactive prompt that runs whatever is typed or piped into it') },
    ...[
      '-b',
      '-B',
      '-d',
      '-E',
      '-h',
      '-?',
      '-I',
      '-O',
      '-P',
      '-q',
      '-R',
      '-s',
      '-S',
      '-u',
      '-v',
      '-V',
      '-x',
      '-3',
      '--help',
      '--help-env',
      '--help-xoptions',
      '--help-all',
      '--version',
    ].map((name): OptionDef => ({ names: [name] })),
  ],
  complete: true,
};

/** `python -m <module>` for modules that serve, install or open things; other modules are like a script. */
const moduleRisks: Record<string, { kind: Risk['kind']; detail: string }> = {
  'http.server': { kind: 'network', detail: 'serves the folder over HTTP' },
  smtpd: { kind: 'network', detail: 'runs an SMTP server' },
  'xmlrpc.server': { kind: 'network', detail: 'runs an XML-RPC server' },
  pydoc: { kind: 'network', detail: 'can serve documentation over HTTP (-p) or write files (-w)' },
  webbrowser: { kind: 'runs-code', detail: 'opens a web browser' },
  ensurepip: { kind: 'writes-outside', detail: 'installs pip into the interpreter' },
  venv: { kind: 'writes-outside', detail: 'creates a virtual environment (wherever it is told)' },
  ftplib: { kind: 'network', detail: 'talks to an FTP server' },
  'urllib.request': { kind: 'network', detail: 'fetches a URL' },
  code: { kind: 'runs-code', detail: 'starts an interactive console that runs whatever is typed or piped into it' },
  asyncio: { kind: 'runs-code', detail: 'starts an interactive console that runs whatever is typed or piped into it' },
  pdb: { kind: 'runs-code', detail: 'starts the debugger, which runs commands typed or piped into it' },
  timeit: { kind: 'runs-code', detail: 'runs the Python statements given on the command line' },
  pipx: { kind: 'runs-code', detail: 'installs or runs applications from the package index' },
  uv: { kind: 'runs-code', detail: 'installs packages or runs tools from the package index' },
  zipapp: { kind: 'writes-outside', detail: 'writes an archive wherever it is told' },
};

const stdinScript = /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(self|\d+)\/fd\/\d+)$/;

/**
 * python, python3, python3.12, pypy3: a script file is the project's code and stays
 * allowed; inline code, stdin programs and modules that serve, install or open
 * things are asked; `python -m pip` is judged like pip.
 */
export const python: ProgramKnowledge = {
  names: ['python', 'python2', 'python3', 'pypy', 'pypy3'],
  matches: (base) => /^python[0-9.]*$/.test(base) || /^pypy[0-9.]*$/.test(base),
  assess(args, context) {
    return parseArguments(args, grammar).readings.flatMap((tokens) => {
      const risks: Risk[] = optionRisks(tokens, context);
      const module = usesOf(tokens, ['-m'])[0];
      const script = module ? undefined : positionalsOf(tokens)[0];
      if (module?.value) {
        const name = module.value.text;
        const moduleArgs = positionalsOf(tokens).map((token) => token.word);
        if (name === 'pip' || name === 'pip3') risks.push(...pipRisks(moduleArgs, context, `python -m ${name}`));
        else if (moduleRisks[name]) {
          const known = moduleRisks[name];
          risks.push(risk(known.kind, module.spelled, `-m ${name} ${known.detail}`));
        } else if (module.value.dynamic)
          risks.push(risk('runs-code', module.spelled, '-m runs a module only known at run time'));
      } else if (script && stdinScript.test(script.word.text))
        risks.push(risk('runs-code', script.word.text, `${script.word.text} runs a program read from stdin`));
      else if (script && isOutside(script.word, context)) risks.push(scriptElsewhere('python', script.word));
      return risks;
    });
  },
};
