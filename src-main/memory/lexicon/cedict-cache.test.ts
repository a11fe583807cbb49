import { chmodSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCedict, prepareCedictCache, readVerifiedCache, writeCedictCache } from './cedict.js';

// A small CC-CEDICT file in the shipped wrapper (`module.exports = \`…\``), so each test parses in
// milliseconds and owns its source and cache folder.
const SOURCE = [
  '# CC-CEDICT test edition',
  '牙醫 牙医 [ya2 yi1] /dentist/',
  '電話 电话 [dian4 hua4] /telephone/phone call/',
  '自行車 自行车 [zi4 xing2 che1] /bicycle/bike/',
  '深圳市 深圳市 [Shen1 zhen4 Shi4] /Shenzhen, sub-provincial city in Guangdong/',
  '上海 上海 [Shang4 hai3] /Shanghai municipality/',
  '梅 梅 [Mei2] /surname Mei/',
  '梅 梅 [mei2] /plum/plum flower/',
  '陳 陈 [Chen2] /surname Chen/',
  '都 都 [Du1] /surname Du/',
  '都 都 [dou1] /all/both/',
].join('\n');

let dir: string;
let source: string;
let cacheDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-cedict-cache-'));
  source = join(dir, 'cedict_ts.u8.js');
  writeFileSync(source, `module.exports = \`${SOURCE}\`;\n`);
  cacheDir = join(dir, 'home', 'cache', 'lexicon');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const cacheFile = () => join(cacheDir, 'cedict.txt');

describe('CC-CEDICT cache', () => {
  it('is written atomically into a folder only this user can open, and read back', async () => {
    await writeCedictCache(source, cacheDir);
    if (process.platform !== 'win32') {
      expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
      expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    }
    expect(readFileSync(cacheFile(), 'utf8')).toMatch(/^hearth-cedict-cache v\d+ source \d+ \d+ sha256 [0-9a-f]{64}\n/);
    const cached = readVerifiedCache(source, cacheDir);
    expect(cached?.chinese('dentist')).toEqual(['牙医']);
    expect(cached?.english('电话')).toContain('telephon');
    // Character readings survive the cache (names are matched by their sound).
    expect(cached?.readings('梅')).toEqual(['mei']);
  });

  it('maps a proper noun spelled by its own pinyin to the characters it spells', () => {
    const dictionary = loadCedict(source);
    expect(dictionary.chinese('shenzhen')).toEqual(['深圳']);
    expect(dictionary.chinese('shanghai')).toEqual(['上海']);
    expect(dictionary.chinese('bicycl')).toEqual(['自行车']);
  });

  it('keeps every reading of a character, without tones', () => {
    const dictionary = loadCedict(source);
    expect(dictionary.readings('陈')).toEqual(['chen']);
    expect(dictionary.readings('都')).toEqual(expect.arrayContaining(['du', 'dou']));
    expect(dictionary.readings('x')).toEqual([]);
  });

  it('never trusts a cache whose tables were altered: the source is parsed instead', async () => {
    await writeCedictCache(source, cacheDir);
    const poisoned = readFileSync(cacheFile(), 'utf8').replace('牙医', '毒药');
    writeFileSync(cacheFile(), poisoned, { mode: 0o600 });
    expect(readVerifiedCache(source, cacheDir)).toBeUndefined();
    expect(loadCedict(source, cacheDir).chinese('dentist')).toEqual(['牙医']);
    // Rebuilding replaces it with a valid one.
    await writeCedictCache(source, cacheDir);
    expect(readVerifiedCache(source, cacheDir)?.chinese('dentist')).toEqual(['牙医']);
  });

  it('ignores a truncated cache or one without a header', async () => {
    await writeCedictCache(source, cacheDir);
    const whole = readFileSync(cacheFile(), 'utf8');
    writeFileSync(cacheFile(), whole.slice(0, whole.length - 10), { mode: 0o600 });
    expect(readVerifiedCache(source, cacheDir)).toBeUndefined();
    writeFileSync(cacheFile(), whole.slice(whole.indexOf('\n') + 1), { mode: 0o600 });
    expect(readVerifiedCache(source, cacheDir)).toBeUndefined();
  });

  it('prepares the cache off-thread, and replaces a bad one rather than keeping it', async () => {
    await prepareCedictCache(source, cacheDir);
    expect(readVerifiedCache(source, cacheDir)?.chinese('dentist')).toEqual(['牙医']);
    writeFileSync(cacheFile(), 'hearth-cedict-cache v1 source 1 1 sha256 00\nbogus', { mode: 0o600 });
    await prepareCedictCache(source, cacheDir);
    expect(readVerifiedCache(source, cacheDir)?.chinese('dentist')).toEqual(['牙医']);
  });

  it('treats a cache of an older source as stale', async () => {
    await writeCedictCache(source, cacheDir);
    writeFileSync(source, `module.exports = \`${SOURCE}\n醫生 医生 [yi1 sheng1] /doctor/\`;\n`);
    const later = new Date(statSync(source).mtimeMs + 5_000);
    utimesSync(source, later, later);
    expect(readVerifiedCache(source, cacheDir)).toBeUndefined();
    expect(loadCedict(source, cacheDir).chinese('doctor')).toEqual(['医生']);
    await writeCedictCache(source, cacheDir);
    expect(readVerifiedCache(source, cacheDir)?.chinese('doctor')).toEqual(['医生']);
  });

  it.skipIf(process.platform === 'win32')('refuses a cache folder other users can write to', async () => {
    mkdirSync(cacheDir, { recursive: true });
    chmodSync(cacheDir, 0o777);
    await expect(writeCedictCache(source, cacheDir)).rejects.toThrow(/closed to others/);
    chmodSync(cacheDir, 0o700);
    await writeCedictCache(source, cacheDir);
    chmodSync(cacheDir, 0o777);
    expect(readVerifiedCache(source, cacheDir)).toBeUndefined();
    chmodSync(cacheFile(), 0o666);
    chmodSync(cacheDir, 0o700);
    expect(readVerifiedCache(source, cacheDir)).toBeUndefined();
  });
});
