import { type Grammar, getoptLong, optionRisks, parseArguments, positionalsOf } from './option-grammar.js';
import { folderOutside, runsCode } from './option-risks.js';
import { isOutside, type ProgramContext, type ProgramKnowledge, type Risk, risk } from './program-knowledge.js';

/** Variables that decide how make runs every recipe. */
const shellVariables = /^(SHELL|\.SHELLFLAGS|MAKESHELL|MAKEFLAGS|MFLAGS|MAKE|MAKEFILES|MAKEOVERRIDES|GNUMAKEFLAGS)$/;

const stdinFile = /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(self|\d+)\/fd\/\d+)$/;
const elsewhere = folderOutside('make then runs the recipes of a Makefile outside the working folder');

/** GNU make (getopt_long). */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    {
      names: ['-C', '--directory'],
      value: 'required',
      risk: folderOutside('make then runs the recipes of a Makefile outside the working folder'),
    },
    {
      names: ['-f', '--file', '--makefile'],
      value: 'required',
      risk: (use, context) =>
        use.value && stdinFile.test(use.value.text)
          ? risk(
              'runs-code',
              use.spelled,
              `${use.name} ${use.value.text} runs the recipes of a Makefile read from stdin`,
            )
          : elsewhere(use, context),
    },
    {
      names: ['-E', '--eval'],
      value: 'required',
      risk: runsCode('adds make rules given on the command line, which run as recipes'),
    },
    { names: ['-I', '--include-dir'], value: 'required', risk: folderOutside('make may include makefiles from there') },
    { names: ['-j', '--jobs', '-l', '--load-average', '--max-load'], value: 'optional' },
    {
      names: [
        '-o',
        '--old-file',
        '--assume-old',
        '-W',
        '--what-if',
        '--new-file',
        '--assume-new',
        '-O',
        '--output-sync',
        '--jobserver-auth',
        '--jobserver-style',
        '--debug',
        '--shuffle',
      ],
      value: 'required',
    },
  ],
};

/** A value naming a program outside the workspace and the system folders (`CC=/tmp/x`). */
function outsideProgram(value: string, context: ProgramContext): boolean {
  const program = value.trim().split(/\s+/)[0] ?? '';
  return program.includes('/') && !/^\/(usr|bin|opt)\//.test(program) && isOutside(program, context);
}

/**
 * make runs the workspace's own Makefile on a bare entry (the project's code, like
 * `node script.js`). Asked: a Makefile or folder elsewhere, rules from the command
 * line, and variables that change the shell every recipe runs in.
 */
export const make: ProgramKnowledge = {
  names: ['make', 'gmake'],
  assess(args, context) {
    return parseArguments(args, grammar).readings.flatMap((tokens) => {
      const risks: Risk[] = optionRisks(tokens, context);
      for (const word of positionalsOf(tokens).map((token) => token.word)) {
        const assignment = /^([A-Za-z_.][A-Za-z0-9_.]*)\s*[:+?!]?=(.*)$/s.exec(word.text);
        if (!assignment) continue;
        const [, name = '', value = ''] = assignment;
        if (shellVariables.test(name))
          risks.push(risk('runs-code', word.text, `${name}= changes the shell or flags every recipe runs with`));
        else if (word.dynamic || /[;&|`$<>()]/.test(value) || outsideProgram(value, context))
          risks.push(risk('runs-code', word.text, `${name}= sets a value recipes may run as a command`));
      }
      return risks;
    });
  },
};
