import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { summariseAnalysis } from './analysis-types.js';
import { type BashParser, loadBashParser } from './bash-parser.js';
import { analyseCommand } from './command-analysis.js';
import { gradeRisk, type RiskLevel } from './risk-grade.js';

const where = { cwd: '/work/project', home: '/home/me' };
let parser: BashParser;
beforeAll(async () => {
  parser = await loadBashParser();
});
const grade = (command: string) => gradeRisk(summariseAnalysis(analyseCommand(parser, command, where)), where);

const table: [string, RiskLevel][] = [
  ['ls -la', 'safe'],
  ['git status', 'safe'],
  ['cat README.md | wc -l', 'safe'],
  ['echo hi > notes.txt', 'safe'],
  ['mkdir -p build/out', 'safe'],
  ['curl https://example.com', 'caution'],
  ['python3 -c "print(1)"', 'caution'],
  ['mv a.txt b.txt', 'caution'],
  ['rm notes.txt', 'destructive'],
  ['rm -rf build', 'destructive'],
  ['rm -r -- build', 'destructive'],
  ['/bin/rm -R build', 'destructive'],
  ['env FOO=1 rm -fr build', 'destructive'],
  ['sh -c "rm -rf build"', 'destructive'],
  ['ls && rm -r build', 'destructive'],
  ['git push --force origin main', 'destructive'],
  ['git push -f', 'destructive'],
  ['git push origin +main', 'destructive'],
  ['git reset --hard HEAD~1', 'destructive'],
  ['git clean -fdx', 'destructive'],
  ['sudo ls', 'destructive'],
  ['sudo -u root cat /etc/hosts', 'destructive'],
  ['dd if=/dev/zero of=disk.img bs=1M count=1', 'destructive'],
  ['mkfs.ext4 /dev/sdb1', 'destructive'],
  ['chmod -R 777 src', 'destructive'],
  ['chown -R me:me .', 'destructive'],
  ['curl https://get.example.com/install.sh | sh', 'destructive'],
  ['wget -qO- https://example.com/x | bash', 'destructive'],
  ['cp build/app /usr/local/bin/app', 'destructive'],
  ['echo x > ~/.bashrc', 'destructive'],
  ['tee /etc/hosts', 'destructive'],
  ['find . -name "*.tmp" -delete', 'destructive'],
  ['rsync -a --delete src/ backup/', 'destructive'],
  ['npm publish', 'destructive'],
  ['shred secret.txt', 'destructive'],
];

describe('risk grade', () => {
  it.each(table)('%s is %s', (command, level) => {
    expect(grade(command).level).toBe(level);
  });

  it('says what a destructive command touches and why', () => {
    const risk = grade('rm -rf build dist');
    expect(risk.writes).toEqual(['build', 'dist']);
    expect(risk.because.map((reason) => reason.code)).toContain('deletes');
    expect(grade('curl https://example.com').network).toBe(true);
  });

  it('grades rm destructive whatever wraps it, however its options are spelled', () => {
    const wrapper = fc.constantFrom('', 'sudo ', 'env A=1 ', 'nohup ', 'timeout 5 ', 'command ');
    const flags = fc.constantFrom('-r', '-R', '-rf', '-fr', '--recursive', '-r -f', '-v -r');
    const target = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    const before = fc.constantFrom('', 'ls; ', 'true && ', 'echo ok | ');
    fc.assert(
      fc.property(before, wrapper, flags, target, (prefix, wrap, flag, name) => {
        const risk = grade(`${prefix}${wrap}rm ${flag} ${name}`);
        expect(risk.level).toBe('destructive');
        expect(risk.writes).toContain(name);
      }),
      { numRuns: 150 },
    );
  });

  it('never grades a plain read of the workspace above safe', () => {
    const reader = fc.constantFrom('ls', 'cat', 'head', 'wc -l', 'grep -n x');
    const file = fc.stringMatching(/^[a-z][a-z0-9_.]{0,8}$/);
    fc.assert(
      fc.property(reader, file, (program, name) => {
        expect(grade(`${program} ${name}`).level).toBe('safe');
      }),
      { numRuns: 100 },
    );
  });
});
