import { type Grammar, getoptLong, optionRisks, parseArguments, positionalsOf, usesOf } from './option-grammar.js';
import { always } from './option-risks.js';
import { type ProgramKnowledge, type Risk, risk } from './program-knowledge.js';

/** GNU sed (getopt_long): `-i` takes an attached suffix only, so `-ie` is "-i with suffix e". */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['-i', '--in-place'], value: 'optional', risk: always('writes-files', 'edits the files in place') },
    { names: ['-e', '--expression'], value: 'required' },
    { names: ['-f', '--file'], value: 'required' },
    { names: ['-l', '--line-length'], value: 'required' },
    { names: ['-s', '--separate'] },
    { names: ['-n', '--quiet', '--silent'] },
    { names: ['-E', '-r', '--regexp-extended'] },
    { names: ['-z', '--null-data'] },
    { names: ['-u', '--unbuffered'] },
    { names: ['--posix'] },
    { names: ['--sandbox'] },
    { names: ['--debug'] },
    { names: ['--follow-symlinks'] },
  ],
};

/** Commands `e`, `w file`, `W file` (optionally after an address), and the `e`/`w` flags of s///. */
export function sedScriptRunsOrWrites(script: string): boolean {
  if (/(^|[;\n{}])\s*([0-9$,~!/\\^.*+?\w[\]]*\s*)?[ewW](\s|$)/.test(script)) return true;
  const substitution = /s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([a-zA-Z0-9]*)/gs;
  for (const match of script.matchAll(substitution)) if (/[ew]/.test(match[2] ?? '')) return true;
  return false;
}

/** sed and gsed: in-place edits, and scripts that run commands (`e`) or write files (`w`). */
export const sed: ProgramKnowledge = {
  names: ['sed', 'gsed'],
  assess(args, context) {
    return parseArguments(args, grammar).readings.flatMap((tokens) => {
      const risks: Risk[] = optionRisks(tokens, context);
      // --sandbox makes sed refuse e, w and r: the script cannot run or write anything.
      if (usesOf(tokens, ['--sandbox']).length > 0) return risks;
      const files = usesOf(tokens, ['-f', '--file']);
      for (const file of files)
        risks.push(
          risk(
            'runs-code',
            file.spelled,
            `${file.name} reads a sed script from a file, which can run commands (e) or write files (w)`,
          ),
        );
      const expressions = usesOf(tokens, ['-e', '--expression']);
      const scripts = expressions.length > 0 || files.length > 0 ? expressions : [];
      if (expressions.length === 0 && files.length === 0) {
        const first = positionalsOf(tokens)[0];
        if (first) scripts.push({ name: 'script', value: first.word, spelled: [first.word.text] });
      }
      for (const script of scripts)
        if (script.value && (script.value.dynamic || sedScriptRunsOrWrites(script.value.text)))
          risks.push(risk('runs-code', script.spelled, 'the sed script runs a command (e) or writes a file (w)'));
      return risks;
    });
  },
};
