import {
  type Grammar,
  interpreterGetopt,
  type OptionDef,
  optionRisks,
  parseArguments,
  positionalsOf,
} from './option-grammar.js';
import { always, network, runsCode } from './option-risks.js';
import { isOutside, type ProgramKnowledge, type Risk, scriptElsewhere } from './program-knowledge.js';

const inline = runsCode('runs the code given on the command line');
const loads = runsCode('loads a module before the script: its code runs');

/** perl: letters cluster (`-pie`, `-Mstrict`), values attach or follow; `-e` ends nothing. */
const perl: Grammar = {
  convention: interpreterGetopt,
  options: [
    { names: ['-e', '-E'], value: 'required', risk: inline },
    { names: ['-M', '-m'], value: 'required', risk: loads },
    { names: ['-d'], value: 'optional', risk: runsCode('runs the script under a debugger module') },
    { names: ['-i'], value: 'optional', risk: always('writes-files', 'edits the files in place') },
    { names: ['-l'], value: 'optional', attachedValue: /^[0-7]*/ },
    { names: ['-0'], value: 'optional', attachedValue: /^(x[0-9a-fA-F]*|[0-7]*)/ },
    { names: ['-C'], value: 'optional', attachedValue: /^([0-9]+|[IOEioeSDAL]*)/ },
    { names: ['-I', '-D', '-x'], value: 'optional' },
    ...['-n', '-p', '-a', '-s', '-w', '-W', '-X', '-T', '-t', '-U', '-c', '-S', '-v', '-V', '-h'].map(
      (name): OptionDef => ({ names: [name] }),
    ),
    { names: ['-F'], value: 'optional' },
  ],
};

/** ruby: `-e`, `-r lib`, `-S` (a script looked up on PATH), `-i` edits in place. */
const ruby: Grammar = {
  convention: interpreterGetopt,
  options: [
    { names: ['-e'], value: 'required', risk: inline },
    { names: ['-r', '--require'], value: 'required', risk: loads },
    { names: ['-S'], risk: runsCode('runs a script looked up on PATH') },
    { names: ['-i'], value: 'optional', risk: always('writes-files', 'edits the files in place') },
    { names: ['-I', '-C', '-E', '--encoding', '--enable', '--disable'], value: 'required' },
    { names: ['-0'], value: 'optional', attachedValue: /^[0-7]*/ },
    { names: ['-W'], value: 'optional', attachedValue: /^([0-2]|:[\w-]+)?/ },
    { names: ['-T'], value: 'optional', attachedValue: /^[0-9]*/ },
    { names: ['-F', '-x'], value: 'optional' },
  ],
};

/** php: `-r code`, `-a` interactive, `-S host:port` serves, `-d` ini settings such as auto_prepend_file. */
const php: Grammar = {
  convention: interpreterGetopt,
  options: [
    { names: ['-r'], value: 'required', risk: inline },
    { names: ['-a'], risk: runsCode('starts an interactive shell that runs whatever is typed or piped into it') },
    { names: ['-S'], value: 'required', risk: network('serves the folder over HTTP') },
    {
      names: ['-d', '-c', '-z'],
      value: 'required',
      risk: runsCode('changes the configuration (auto_prepend_file, extensions…), which can run code'),
    },
    { names: ['-B', '-R', '-F', '-E'], value: 'required', risk: inline },
    { names: ['-t', '-f'], value: 'required' },
  ],
};

function interpreter(names: string[], grammar: Grammar, program: string): ProgramKnowledge {
  return {
    names,
    assess(args, context) {
      return parseArguments(args, grammar).readings.flatMap((tokens) => {
        const risks: Risk[] = optionRisks(tokens, context);
        const inlineCode = risks.some((found) => found.detail.includes('on the command line'));
        const script = inlineCode ? undefined : positionalsOf(tokens)[0];
        if (script && script.word.text !== '-' && isOutside(script.word, context))
          risks.push(scriptElsewhere(program, script.word));
        return risks;
      });
    },
  };
}

export const scriptingLanguages: ProgramKnowledge[] = [
  interpreter(['perl'], perl, 'perl'),
  interpreter(['ruby'], ruby, 'ruby'),
  interpreter(['php'], php, 'php'),
];
