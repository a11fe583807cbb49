import { describe, expect, it } from 'vitest';
import { parseDotenv } from './dotenv-file.js';
import { parseRelaxedJson } from './relaxed-json.js';

describe('the formats the other tools write', () => {
  it('reads OpenClaw JSON5: comments, trailing commas, single quotes; never touches text inside strings', () => {
    expect(
      parseRelaxedJson(`{
        // a comment
        "url": "http://host/a//b", /* block */
        'name': 'it\\'s "quoted"',
        "list": [1, 2,],
      }`),
    ).toEqual({ url: 'http://host/a//b', name: 'it\'s "quoted"', list: [1, 2] });
  });

  it('reports what strict JSON reports when the text is beyond repair', () => {
    expect(() => parseRelaxedJson('{ unquoted: 1 }')).toThrow(/JSON/);
  });

  it('reads .env: export, quotes, comments, blank values left out', () => {
    const values = parseDotenv('# c\nexport A=1\nB="two words"\nC=\'x#y\'\nD=plain # note\nE=\nnot a line\n');
    expect([...values]).toEqual([
      ['A', '1'],
      ['B', 'two words'],
      ['C', 'x#y'],
      ['D', 'plain'],
    ]);
  });
});
