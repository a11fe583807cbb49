import { always, writesValue } from './option-risks.js';
import { type ProgramKnowledge, plainWord, type Risk } from './program-knowledge.js';

/**
 * find's expression is single-dash words, not getopt. `-exec`/`-execdir`/`-ok`
 * commands are analysed as commands of their own (invocation-rules.ts); here are
 * the actions that delete or write.
 */
const writesFile = writesValue();
const deletes = always('writes-files', 'deletes every file it matches');

export const find: ProgramKnowledge = {
  names: ['find', 'gfind'],
  assess(args, context) {
    const risks: Risk[] = [];
    for (let index = 0; index < args.length; index++) {
      const text = args[index]?.text ?? '';
      if (text === '-delete') {
        const found = deletes({ name: text, value: undefined, spelled: [text] }, context);
        if (found) risks.push(found);
      } else if (/^-(fprint|fprint0|fls|fprintf)$/.test(text)) {
        const file = args[index + 1] ?? plainWord('');
        const found = writesFile({ name: text, value: file, spelled: [text, file.text] }, context);
        if (found) risks.push(found);
        index += text === '-fprintf' ? 2 : 1;
      }
    }
    return risks;
  },
};
