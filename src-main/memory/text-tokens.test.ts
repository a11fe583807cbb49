import { describe, expect, it } from 'vitest';
import { analyzeText, searchTerms, toFtsText } from './text-tokens.js';

describe('search terms', () => {
  it('keeps code identifiers and file names whole, with their parts and camelCase words', () => {
    const terms = searchTerms('XmlError(UnexpectedEof) in propfind.rs');
    for (const term of [
      'xmlerror',
      'unexpectedeof',
      'propfind.rs',
      'propfind',
      'rs',
      'xml',
      'error',
      'unexpect',
      'eof',
    ])
      expect(terms).toContain(term);
    expect(terms).not.toContain('in');
    expect(searchTerms('unexpected_eof in sync_collection.rs')).toEqual(
      expect.arrayContaining(['unexpected_eof', 'unexpect', 'eof', 'sync_collection.rs', 'sync', 'collect']),
    );
  });

  it('keeps amounts, prices, dates and versions intact as well as their numbers', () => {
    expect(searchTerms('Electricity is €0.27/kWh since 2026-09-20')).toEqual(
      expect.arrayContaining(['€0.27/kwh', '€0.27', '0.27', 'kwh', '2026-09-20', '2026']),
    );
    // Thousands separators do not split an amount: "$1,200.50" and "$1200.50" meet.
    expect(searchTerms('paid $1,200.50')).toEqual(expect.arrayContaining(['$1200.50', '1200.50']));
    expect(searchTerms('v1.2.3 and 10k and 64KiB')).toEqual(
      expect.arrayContaining(['v1.2.3', '10k', '10', '64kib', '64', 'kib']),
    );
    expect(searchTerms('api.example.com')).toEqual(expect.arrayContaining(['api.example.com', 'api', 'exampl', 'com']));
  });

  it('stems English words with Porter and drops stop words', () => {
    expect(searchTerms('The meetings were decided')).toEqual(['meet', 'decid']);
    expect(searchTerms('decide')).toEqual(['decid']);
    expect(searchTerms("don't forget my sister's birthday")).toEqual(['forget', 'sister', 'birthdai']);
  });

  it('segments Chinese into words, with character bigrams as a secondary field', () => {
    const { primary, secondary } = analyzeText('我决定把求解器换成增量版本，预算是三千元');
    expect(primary).toEqual(expect.arrayContaining(['决定', '增量', '版本', '预算']));
    expect(primary).not.toContain('我');
    expect(secondary).toEqual(expect.arrayContaining(['解器', '三千']));
    expect(toFtsText('牙医')).toBe('牙医');
  });
});
