import { type Grammar, getoptLong, optionRisks, parseArguments, positionalsOf, usesOf } from './option-grammar.js';
import { runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, type Risk, risk } from './program-knowledge.js';

/** gawk's options (a superset of POSIX awk, mawk and busybox awk for what matters here). */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    {
      names: ['-f', '--file'],
      value: 'required',
      risk: runsCode('runs an awk program from a file, which can call system() or write files'),
    },
    { names: ['-e', '--source'], value: 'required' },
    {
      names: ['-E', '--exec'],
      value: 'required',
      risk: runsCode('runs an awk program from a file, which can call system() or write files'),
    },
    {
      names: ['-i', '--include'],
      value: 'required',
      risk: runsCode('loads an awk library, which can call system() or write files'),
    },
    { names: ['-l', '--load'], value: 'required', risk: runsCode('loads a native extension library') },
    { names: ['-o', '--pretty-print'], value: 'optional', risk: writesValue('writes the program') },
    { names: ['-p', '--profile'], value: 'optional', risk: writesValue('writes a profile') },
    { names: ['-d', '--dump-variables'], value: 'optional', risk: writesValue('writes variables') },
    { names: ['-v', '--assign', '-F', '--field-separator', '-W'], value: 'required' },
  ],
};

/** system(), pipes to or from commands, output redirection, and gawk's @load/@include. */
export function awkProgramRunsOrWrites(program: string): boolean {
  return /system\s*\(|\|\s*getline|\|&|print[^;}]*(\||>)|printf[^;}]*(\||>)|@load|@include|\bclose\s*\(/.test(program);
}

/** awk, gawk, mawk, nawk: programs that run commands or write files. */
export const awk: ProgramKnowledge = {
  names: ['awk', 'gawk', 'mawk', 'nawk'],
  assess(args, context) {
    return parseArguments(args, grammar).readings.flatMap((tokens) => {
      const risks: Risk[] = optionRisks(tokens, context);
      const sources = usesOf(tokens, ['-e', '--source']);
      const fromFile = usesOf(tokens, ['-f', '--file', '-E', '--exec']).length > 0;
      const programs = [...sources];
      if (sources.length === 0 && !fromFile) {
        const first = positionalsOf(tokens)[0];
        if (first) programs.push({ name: 'program', value: first.word, spelled: [first.word.text] });
      }
      for (const program of programs)
        if (program.value && (program.value.dynamic || awkProgramRunsOrWrites(program.value.text)))
          risks.push(
            risk('runs-code', program.spelled, 'the awk program runs commands (system, pipes) or writes files'),
          );
      return risks;
    });
  },
};
