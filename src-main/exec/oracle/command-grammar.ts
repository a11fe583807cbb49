// Generated shell inputs for the differential oracle: wrappers, quoting, expansions, redirections, heredocs, control flow.
import fc from 'fast-check';

/** Places a destructive command can be pointed at, from harmless to catastrophic, in many spellings. */
const target = fc.constantFrom(
  '~',
  '~/',
  '/',
  '/usr',
  'build',
  'build/x.o',
  '*',
  '.',
  '..',
  'Documents',
  '$HOME',
  '"$HOME"',
  '"$HOME"/',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template
  '${HOME}',
  '/???',
  '~/{Documents,work}',
  '/{bin,nothere}',
  '"$(echo /)"',
  '~/*',
  '$v',
  '"$v"',
  '../..',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template
  '"${v:-/}"',
  "$'/'",
  '~/.ssh',
);

const value = fc.constantFrom('~', '/', 'build', '/tmp/x', '..', '~/Documents', '"$HOME"');

const recursiveFlags = fc.constantFrom(
  '-rf',
  '-Rfv',
  '-r --',
  '-r -f',
  '-fr',
  '--recursive',
  '--r',
  '--rec --force',
  '-R',
  '-f',
  '-v',
  '',
);

/** How the program name is spelled: the analyser must see through each. */
const spelling = (name: string) =>
  fc.constantFrom(
    name,
    `"${name}"`,
    `\\${name}`,
    `${name[0]}''${name.slice(1)}`,
    `$'${name}'`,
    `/bin/${name}`,
    `/usr/bin/${name}`,
  );

const leaf: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(spelling('rm'), recursiveFlags, target).map(([rm, flags, where]) => `${rm} ${flags} ${where}`),
  // GNU options may follow the operands.
  fc.tuple(spelling('rm'), recursiveFlags, target).map(([rm, flags, where]) => `${rm} ${where} ${flags} -v`),
  fc
    .tuple(spelling('cat'), fc.constantFrom('README.md', '~/.bashrc', 'build/x.o'))
    .map(([cat, file]) => `${cat} ${file}`),
  target.map((where) => `ls ${where}`),
  fc.constantFrom('echo hi', 'printf "%s\\n" x', 'true', 'git status', 'curl https://example.com', 'touch made.txt'),
  target.map((where) => `find ${where} -maxdepth 0 -exec rm -rf {} +`),
  target.map((where) => `chmod -R 755 ${where}`),
  target.map((where) => `echo ${where} | xargs rm -rf`),
  fc.constantFrom('mv build gone', 'cp README.md copy.md', 'ssh host uptime'),
);

const singleQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Ways to run a command: wrappers, shells fed in every way, interpreters, state and control flow. */
const wrap = (inner: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: inner },
    inner.chain((command) =>
      fc.constantFrom(
        `env ${command}`,
        `nice ${command}`,
        `nohup ${command} 2>/dev/null`,
        `timeout 5 ${command}`,
        `command ${command}`,
        `stdbuf -o0 ${command}`,
        `( exec ${command} )`,
        `time ${command} 2>/dev/null`,
        `command -p ${command}`,
        `bash -c ${singleQuoted(command)}`,
        `sh -c ${singleQuoted(command)}`,
        `eval ${singleQuoted(command)}`,
        `script -qc ${singleQuoted(command)} /dev/null`,
        `echo ${singleQuoted(command)} | sh`,
        `cat <<'EOF' | sh\n${command}\nEOF`,
        `sh <<< ${singleQuoted(command)}`,
        `bash <(echo ${singleQuoted(command)})`,
        `python3 -c ${singleQuoted(`import os; os.system(${JSON.stringify(command)})`)}`,
        `awk ${singleQuoted(`BEGIN{system(${JSON.stringify(command)})}`)}`,
        `perl -e ${singleQuoted(`system(${JSON.stringify(command)})`)}`,
        `trap ${singleQuoted(command)} EXIT`,
        `bash <<'EOF'\n${command}\nEOF`,
        `xargs -0 sh -c ${singleQuoted(command)} sh < /dev/null`,
        `find . -maxdepth 0 -exec sh -c ${singleQuoted(command)} \\;`,
      ),
    ),
    fc
      .tuple(value, inner)
      .chain(([assigned, command]) =>
        fc.constantFrom(
          `v=${assigned}; ${command}`,
          `for v in ${assigned}; do ${command}; done`,
          `cd ${assigned} && ${command}`,
          `cd ${assigned}; ${command}`,
          `read -r v <<< ${assigned}; ${command}`,
        ),
      ),
    fc
      .tuple(inner, leaf)
      .chain(([command, other]) =>
        fc.constantFrom(
          `if true; then ${command}; fi`,
          `{ ${command}; }`,
          `( ${command} )`,
          `${command} && ${other}`,
          `false || ${command}`,
          `${other}; ${command}`,
          `true | ${command}`,
          `f() { ${command}; }; f`,
          `case x in x) ${command};; esac`,
          `${command} > out.txt`,
          `${command} > ~/out.txt`,
          `${command} >> ../up.txt`,
          `while ${other}; do ${command}; break; done`,
          `${command} < /dev/null 2>&1`,
        ),
      ),
  );

/** A command line: a leaf inside up to three layers of wrapping. */
export const commandLine: fc.Arbitrary<string> = wrap(wrap(wrap(leaf)));
