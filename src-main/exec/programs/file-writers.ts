import type { ShellWord } from '../shell-words.js';
import {
  type Grammar,
  getoptLong,
  type OptionDef,
  optionRisks,
  parseArguments,
  positionalsOf,
  usesOf,
} from './option-grammar.js';
import { type ProgramKnowledge, pathPlace, type Risk, writeRisk } from './program-knowledge.js';

/**
 * Coreutils that change files. A bare entry covers changes inside the working
 * folder (not its dotfiles: .git/hooks, .env…); anything they would change
 * elsewhere, or only known at run time, is asked.
 */
interface Writer {
  names: string[];
  /** Which operands are written: all of them, or only the last (the destination of cp/ln). */
  written: 'all' | 'last' | 'all-but-first';
  /** Deleting a dotfile inside the folder (`.cache`, `.next`) is as harmless as deleting any other file there. */
  deletes?: boolean;
  valued: string[];
  what: string;
}

const writers: Writer[] = [
  {
    names: ['rm', 'unlink', 'rmdir', 'shred'],
    written: 'all',
    deletes: true,
    valued: ['--interactive', '-n', '--iterations', '-s', '--size', '--random-source'],
    what: 'deletes',
  },
  { names: ['mkdir'], written: 'all', valued: ['-m', '--mode', '--context'], what: 'creates' },
  { names: ['touch'], written: 'all', valued: ['-d', '--date', '-r', '--reference', '-t', '--time'], what: 'touches' },
  { names: ['truncate'], written: 'all', valued: ['-s', '--size', '-r', '--reference'], what: 'truncates' },
  { names: ['mv'], written: 'all', valued: ['-t', '--target-directory', '-S', '--suffix', '--backup'], what: 'moves' },
  {
    names: ['cp', 'install'],
    written: 'last',
    valued: [
      '-t',
      '--target-directory',
      '-S',
      '--suffix',
      '--backup',
      '-m',
      '--mode',
      '-o',
      '--owner',
      '-g',
      '--group',
      '--preserve',
      '--no-preserve',
      '--sparse',
      '--reflink',
      '--context',
    ],
    what: 'copies',
  },
  {
    names: ['ln'],
    written: 'last',
    valued: ['-t', '--target-directory', '-S', '--suffix', '--backup'],
    what: 'creates a link',
  },
  { names: ['chmod', 'chown', 'chgrp'], written: 'all-but-first', valued: ['--reference', '--from'], what: 'changes' },
  {
    names: ['xxd'],
    written: 'last',
    valued: ['-c', '-cols', '-g', '-groupsize', '-l', '-len', '-o', '-offset', '-s', '-seek', '-n', '-name'],
    what: 'writes',
  },
  {
    names: ['split', 'csplit'],
    written: 'last',
    valued: [
      '-a',
      '--suffix-length',
      '-b',
      '--bytes',
      '-C',
      '--line-bytes',
      '-l',
      '--lines',
      '-n',
      '--number',
      '-t',
      '--separator',
      '--additional-suffix',
      '--filter',
      '-f',
      '--prefix',
      '--suffix-format',
      '-d',
    ],
    what: 'writes pieces',
  },
];

/** GNU long options whose value is optional (`--backup[=CONTROL]`): they never take the next word. */
const optionalValue = new Set(['--backup', '--preserve', '--reflink', '--context', '--interactive']);

function grammarOf(writer: Writer): Grammar {
  const options: OptionDef[] = writer.valued.map((name) => ({
    names: [name],
    value: optionalValue.has(name) ? 'optional' : 'required',
  }));
  return { convention: getoptLong, options };
}

function writerKnowledge(writer: Writer): ProgramKnowledge {
  const grammar = grammarOf(writer);
  return {
    names: writer.names,
    assess(args, context) {
      return parseArguments(args, grammar).readings.flatMap((tokens) => {
        const risks: Risk[] = optionRisks(tokens, context);
        const operands = positionalsOf(tokens).map((token) => token.word);
        const targets: ShellWord[] = usesOf(tokens, ['-t', '--target-directory']).flatMap((use) =>
          use.value ? [use.value] : [],
        );
        const chmodReference = writer.written === 'all-but-first' && usesOf(tokens, ['--reference']).length > 0;
        if (writer.written === 'all') targets.push(...operands);
        else if (writer.written === 'all-but-first') targets.push(...operands.slice(chmodReference ? 0 : 1));
        else if (targets.length === 0 && operands.length >= 2) targets.push(operands.at(-1) as ShellWord);
        for (const target of targets) {
          const name = writer.names[0];
          const found =
            writer.deletes && pathPlace(target, context) === 'inside' && !target.glob
              ? undefined
              : writeRisk(target, context, target.text, `${name} ${writer.what}`);
          if (found) risks.push(found);
        }
        return risks;
      });
    },
  };
}

/** dd writes `of=`; the hard floor already denies block devices. */
const dd: ProgramKnowledge = {
  names: ['dd'],
  assess(args, context) {
    return args.flatMap((arg) => {
      if (!arg.text.startsWith('of=')) return [];
      const found = writeRisk({ ...arg, text: arg.text.slice(3) }, context, arg.text, 'dd writes');
      return found ? [found] : [];
    });
  },
};

export const fileWriters: ProgramKnowledge[] = [...writers.map(writerKnowledge), dd];
