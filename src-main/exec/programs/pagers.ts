import { type Grammar, getoptLong, optionRisks, parseArguments } from './option-grammar.js';
import { runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, type Risk, risk } from './program-knowledge.js';

/** less: `+cmd` runs a less command at start (`!` is a shell escape, `|` pipes to a command); `-o` copies input to a file. */
const lessGrammar: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['-o', '--log-file', '-O', '--LOG-FILE'], value: 'required', risk: writesValue('copies the input') },
    {
      names: ['-k', '--lesskey-file', '--lesskey-src'],
      value: 'required',
      risk: runsCode('loads key bindings, which can run shell commands'),
    },
    {
      names: [
        '-b',
        '--buffers',
        '-h',
        '--max-back-scroll',
        '-j',
        '--jump-target',
        '-P',
        '--prompt',
        '-T',
        '--tag-file',
        '-t',
        '--tag',
        '-x',
        '--tabs',
        '-y',
        '--max-forw-scroll',
        '-z',
        '--window',
        '--shift',
        '-#',
        '--color',
        '--use-color',
      ],
      value: 'required',
    },
  ],
};

export const less: ProgramKnowledge = {
  names: ['less', 'more', 'most'],
  assess(args, context) {
    const risks: Risk[] = [];
    for (const arg of args)
      if (arg.text.startsWith('+') && /[!|]/.test(arg.text))
        risks.push(risk('runs-code', arg.text, `${arg.text} runs a shell command when the pager starts`));
    return [...risks, ...parseArguments(args, lessGrammar).readings.flatMap((tokens) => optionRisks(tokens, context))];
  },
};

/** man-db's man: the pager, browser and preprocessors it runs are configurable on the command line. */
const manGrammar: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['-P', '--pager'], value: 'required', risk: runsCode('runs this program as the pager') },
    {
      names: ['-H', '--html'],
      value: 'optional',
      risk: runsCode('opens the page in a web browser (or the program named)'),
    },
    { names: ['-X', '--gxditview'], value: 'optional', risk: runsCode('opens the page in an X viewer') },
    {
      names: ['-C', '--config-file'],
      value: 'required',
      risk: runsCode('reads a man configuration, which can name programs to run'),
    },
    { names: ['-p', '--preprocessor'], value: 'required' },
    {
      names: [
        '-M',
        '--manpath',
        '-S',
        '-s',
        '--sections',
        '-m',
        '--systems',
        '-L',
        '--locale',
        '-e',
        '--extension',
        '-r',
        '--prompt',
        '-E',
        '--encoding',
        '-T',
        '--troff-device',
        '-R',
        '--recode',
      ],
      value: 'required',
    },
  ],
};

export const man: ProgramKnowledge = {
  names: ['man'],
  assess(args, context) {
    return parseArguments(args, manGrammar).readings.flatMap((tokens) => optionRisks(tokens, context));
  },
};
