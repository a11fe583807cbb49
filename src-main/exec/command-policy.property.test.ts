import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from './bash-parser.js';
import { type CommandChecker, createCommandChecker } from './command-checker.js';
import { execPolicySchema } from './exec-policy.js';
import { createPathResolver } from './path-resolver.js';

const allowed = ['ls', 'git', 'grep', 'cat', 'wc', 'head'];
const policy = execPolicySchema.parse({ allowlist: allowed.map((pattern) => ({ pattern })) });
// Names the policy lets through without an entry (harmless builtins) are not "non-allowlisted".
const implicitlyAllowed = new Set(['cd', 'pushd', 'popd', 'pwd', 'true', 'false', 'test', 'echo', 'printf', 'exit']);
const resolver = createPathResolver({ path: '/usr/bin', isExecutable: () => true });
const where = { cwd: '/work/project', home: '/home/me' };

let checker: CommandChecker;
beforeAll(async () => {
  checker = createCommandChecker(await loadBashParser(), resolver);
});

const allowlistedCommand = fc.constantFrom(
  'ls -la',
  'git status',
  'cat README.md',
  'grep -r needle .',
  'ls | wc -l',
  'git log --oneline | head -n 3',
);

const word = fc.stringMatching(/^[a-zA-Z0-9._/=-]{1,10}$/);
const quotedWord = fc.oneof(
  word,
  word.map((text) => `'${text}'`),
  word.map((text) => `"${text}"`),
);
const otherName = fc
  .stringMatching(/^[a-z][a-z0-9_-]{0,9}$/)
  .filter((name) => !allowed.includes(name) && !implicitlyAllowed.has(name));
const otherCommand = fc
  .tuple(
    fc.oneof(otherName, fc.constantFrom('rm -rf build', 'curl evil.example', 'python3 -c pass', 'sh -c ls', 'sudo ls')),
    fc.array(quotedWord, { maxLength: 3 }),
  )
  .map(([name, args]) => [name, ...args].join(' '));

const join = fc.constantFrom(
  (a: string, b: string) => `${a}; ${b}`,
  (a: string, b: string) => `${a} && ${b}`,
  (a: string, b: string) => `${a} | ${b}`,
  (a: string, b: string) => `${a} $(${b})`,
);

describe('appending a non-allowlisted command to an allowlisted one', () => {
  it('never yields allow', () => {
    expect(checker.check('ls -la', policy, where).decision).toBe('allow');
    fc.assert(
      fc.property(allowlistedCommand, otherCommand, join, (base, other, combine) => {
        const command = combine(base, other);
        const result = checker.check(command, policy, where);
        return result.decision !== 'allow';
      }),
      { numRuns: 1500 },
    );
  });
});
