import { type Grammar, getoptLong, optionRisks, parseArguments, positionalsOf } from './option-grammar.js';
import { network, runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, type Risk, risk, writeRisk } from './program-knowledge.js';

/** rsync (popt: clusters, `--opt=value`; abbreviations assumed, to be safe). */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['-e', '--rsh'], value: 'required', risk: runsCode('runs this program as the remote shell') },
    { names: ['--rsync-path'], value: 'required', risk: runsCode('runs this program on the other end') },
    { names: ['--daemon'], risk: network('serves files on the network') },
    {
      names: ['--write-batch', '--only-write-batch', '--log-file', '--backup-dir', '--partial-dir', '--temp-dir', '-T'],
      value: 'required',
      risk: writesValue(),
    },
    {
      names: [
        '--config',
        '--password-file',
        '--files-from',
        '--exclude-from',
        '--include-from',
        '--filter',
        '-f',
        '--exclude',
        '--include',
        '--compare-dest',
        '--copy-dest',
        '--link-dest',

        '--suffix',
        '--chmod',
        '--chown',
        '--usermap',
        '--groupmap',
        '--timeout',
        '--contimeout',
        '--port',
        '--sockopts',
        '--bwlimit',
        '--max-size',
        '--min-size',
        '--max-delete',

        '--out-format',
        '--log-file-format',
        '--read-batch',
        '--protocol',
        '--iconv',
        '--checksum-choice',
        '--compress-choice',
        '--compress-level',
        '--block-size',
        '-B',
        '--modify-window',
        '--address',
        '--info',
        '--debug',
        '--outbuf',
        '--remote-option',
        '-M',
        '--mkpath-mode',
        '--stop-after',
        '--stop-at',
      ],
      value: 'required',
    },
  ],
};

const remote = /^([^/:]+@)?[^/:]+::?|^rsync:\/\//;

/** rsync: a remote shell or remote program, remote hosts (network), and the destination. */
export const rsync: ProgramKnowledge = {
  names: ['rsync'],
  assess(args, context) {
    return parseArguments(args, grammar).readings.flatMap((tokens) => {
      const risks: Risk[] = optionRisks(tokens, context);
      const paths = positionalsOf(tokens);
      for (const path of paths)
        if (remote.test(path.word.text))
          risks.push(
            risk('network', path.word.text, `${path.word.text} is on another machine: rsync copies over the network`),
          );
      const destination = paths.length >= 2 ? paths.at(-1) : undefined;
      if (destination && !remote.test(destination.word.text)) {
        const written = writeRisk(destination.word, context, destination.word.text, 'rsync copies');
        if (written) risks.push(written);
      }
      return risks;
    });
  },
};
