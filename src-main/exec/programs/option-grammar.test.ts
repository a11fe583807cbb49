import { describe, expect, it } from 'vitest';
import {
  type ArgToken,
  type Grammar,
  getoptLong,
  gitParseOptions,
  interpreterGetopt,
  nodeOptions,
  optionRisks,
  parseArguments,
} from './option-grammar.js';
import { plainWord } from './program-knowledge.js';

const words = (line: string) => line.split(' ').filter(Boolean).map(plainWord);

/** Each reading as compact text: `-e=1 script args…`. */
function readings(grammar: Grammar, line: string): string[] {
  return parseArguments(words(line), grammar).readings.map((tokens) => tokens.map(show).join(' '));
}

function show(token: ArgToken): string {
  if (token.kind === 'end') return '--';
  if (token.kind === 'positional') return token.afterOptions ? `[${token.word.text}]` : token.word.text;
  const name = token.candidates.length > 1 ? token.candidates.map((def) => def.names.at(-1)).join('|') : token.use.name;
  const negated = token.negated ? '!' : '';
  return token.use.value === undefined ? `${negated}${name}` : `${negated}${name}=${token.use.value.text}`;
}

const getopt: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['-o', '--output'], value: 'required' },
    { names: ['--output-dir'], value: 'required' },
    { names: ['-i', '--in-place'], value: 'optional' },
    { names: ['-n', '--quiet'] },
    { names: ['-v', '--verbose'] },
  ],
};

describe('getopt_long', () => {
  it('reads clusters, with a valued letter taking the rest of the word or the next word', () => {
    expect(readings(getopt, '-nvo out f')).toEqual(['-n -v -o=out f']);
    expect(readings(getopt, '-nvoout f')).toEqual(['-n -v -o=out f']);
    expect(readings(getopt, '-ni.bak f')).toEqual(['-n -i=.bak f']);
    expect(readings(getopt, '-in f')).toEqual(['-i=n f']);
  });

  it('reads --opt=value and --opt value, and a required value even when it looks like an option', () => {
    expect(readings(getopt, '--output=x f')).toEqual(['--output=x f']);
    expect(readings(getopt, '--output x f')).toEqual(['--output=x f']);
    expect(readings(getopt, '--output --verbose f')).toEqual(['--output=--verbose f']);
  });

  it('resolves unambiguous abbreviations and keeps every candidate of an ambiguous one', () => {
    expect(readings(getopt, '--verb f')).toEqual(['--verbose f']);
    expect(readings(getopt, '--in-p=.bak f')).toEqual(['--in-place=.bak f']);
    expect(readings(getopt, '--out=x f')).toEqual(['--output|--output-dir=x f']);
  });

  it('lets options follow operands, and -- end them', () => {
    expect(readings(getopt, 'f -o x')).toEqual(['f -o=x']);
    expect(readings(getopt, '-- -o x')).toEqual(['-- [-o] [x]']);
  });

  it('follows both readings of an unknown option before a word', () => {
    expect(readings(getopt, '--mystery value -o x')).toEqual(['--mystery=value -o=x', '--mystery value -o=x']);
    expect(readings(getopt, '-X value')).toEqual(['-X=value', '-X value']);
  });
});

describe('interpreters and node', () => {
  const python: Grammar = {
    convention: interpreterGetopt,
    options: [{ names: ['-c'], value: 'required', endsOptions: true }, { names: ['-B'] }, { names: ['-u'] }],
    complete: true,
  };
  it('python: options end at the script or at -c', () => {
    expect(readings(python, '-B script.py -c x')).toEqual(['-B script.py [-c] [x]']);
    expect(readings(python, '-Bc code -u')).toEqual(['-B -c=code [-u]']);
    expect(readings(python, '-ccode')).toEqual(['-c=code']);
  });

  const node: Grammar = {
    convention: nodeOptions,
    options: [
      { names: ['-r', '--require'], value: 'required' },
      { names: ['--inspect-brk'], value: 'optional' },
    ],
  };
  it('node: underscores are dashes, no abbreviations, the script ends the options', () => {
    expect(readings(node, '--inspect_brk=9229 app.js')).toEqual(['--inspect-brk=9229 app.js']);
    expect(readings(node, '--req x app.js')).toEqual(['--req=x app.js', '--req x [app.js]']);
    expect(readings(node, 'app.js -r x')).toEqual(['app.js [-r] [x]']);
  });
});

describe('git parse-options', () => {
  const grep: Grammar = {
    convention: gitParseOptions,
    options: [
      { names: ['-O', '--open-files-in-pager'], value: 'optional' },
      { names: ['-e'], value: 'required' },
      { names: ['-i'] },
    ],
  };
  it('reads -O<cmd> attached, --no- negation and abbreviations', () => {
    expect(readings(grep, '-iOless x')).toEqual(['-i -O=less x']);
    expect(readings(grep, '--open x')).toEqual(['--open-files-in-pager x']);
    expect(readings(grep, '--no-open-files-in-pager x')).toEqual(['!--open-files-in-pager x']);
  });

  it('says so when there are too many unknown options to follow every reading', () => {
    const line = Array.from({ length: 12 }, (_, n) => `--unknown${n} v${n}`).join(' ');
    const parsed = parseArguments(words(line), grep);
    expect(parsed.truncated).toBe(true);
    const risks = parsed.readings.flatMap((tokens) => optionRisks(tokens, { cwd: '/w', home: undefined }));
    expect(risks.map((found) => found.detail)).toContain(
      'too many unrecognised options to follow every reading of them',
    );
  });

  it('refuses a grammar that defines one name twice', () => {
    const broken: Grammar = {
      convention: gitParseOptions,
      options: [{ names: ['-x'] }, { names: ['-x'], value: 'required' }],
    };
    expect(() => parseArguments(words('-x'), broken)).toThrow('option -x is defined twice');
  });
});
