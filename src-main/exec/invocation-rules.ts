import type { AnalyzedCommand, Finding } from './analysis-types.js';
import { guardedWrappers, optionValue, transparentWrappers, wrapperStart } from './command-wrappers.js';
import { hardFloorFindings } from './hard-floor.js';
import type { InvocationContext, InvocationSink, StdinSource, WordItem } from './invocation-types.js';
import { knowledgeOf } from './programs/program-table.js';
import { type RiskyUse, riskyUse } from './risky-options.js';
import { lookAtStdin, lookInside, shellInvocation, shellPayload, shellPayloadText } from './shell-payloads.js';
import type { ShellWord } from './shell-words.js';
import { staticOutputOfStages, staticOutputOfSubstitution } from './static-output.js';
import { writeTargetFinding } from './write-targets.js';

export type { InvocationContext, InvocationSink, StdinSource, WordItem } from './invocation-types.js';

const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);

/** Interpreter → the options that hand it code on the command line. */
const inlineCodeOptions: { test: (base: string) => boolean; options: RegExp }[] = [
  { test: (base) => /^python[0-9.]*$/.test(base) || base === 'pypy3', options: /^-[a-zA-Z]*c$/ },
  { test: (base) => ['node', 'nodejs', 'bun', 'deno'].includes(base), options: /^(-e|-p|--eval|--print|eval)(=|$)/ },
  { test: (base) => base === 'perl', options: /^-[a-zA-Z]*[eE][a-zA-Z]*$/ },
  {
    test: (base) => base === 'ruby' || base === 'lua' || base === 'luajit' || base === 'Rscript',
    options: /^-[a-zA-Z]*e$/,
  },
  { test: (base) => base === 'php', options: /^-r$/ },
  { test: (base) => base === 'osascript', options: /^-e$/ },
  { test: (base) => base === 'pwsh' || base === 'powershell', options: /^-(c|command|encodedcommand|ec)$/i },
];

const interpreters =
  /^(python[0-9.]*|pypy3|node|nodejs|bun|deno|perl|ruby|php|lua|luajit|Rscript|osascript|pwsh|powershell)$/;

export function basename(text: string): string {
  return text.slice(text.lastIndexOf('/') + 1);
}

/**
 * Applies the per-command rules to one invocation (the words of a command after
 * the walker unquoted them): hard floor, wrappers, shell payloads, interpreters,
 * risky options. Records the command(s) it would start into the sink.
 */
export function analyseInvocation(sink: InvocationSink, items: WordItem[], context: InvocationContext): void {
  const [head, ...rest] = items;
  if (!head) return;
  const base = basename(head.word.text);
  const args = rest.map((item) => item.word);
  // The floor looks through variables and literal substitutions (`x=/; rm -rf $x`, `rm -rf "$(echo /)"`).
  const known = items.map((item) => knownWord(item, sink.variables));
  const [knownHead, ...knownArgs] = known;
  for (const finding of hardFloorFindings(basename(knownHead?.text ?? base), knownArgs, sink.home))
    sink.addFinding(finding);
  const record = (extra: Partial<AnalyzedCommand> = {}) =>
    sink.addCommand({
      name: head.word,
      args,
      envNames: context.envNames,
      via: context.via,
      source: context.source,
      ...(context.argsUnknown ? { argsUnknown: true } : {}),
      ...extra,
    });
  const inner = (start: number | undefined, extra: Partial<InvocationContext> = {}) => {
    if (start === undefined) return;
    const innerItems = rest.slice(start);
    analyseInvocation(sink, innerItems, {
      ...context,
      ...extra,
      via: [...context.via, base],
      source: innerItems.map((item) => item.word.raw).join(' '),
    });
  };

  const transparent = transparentWrappers[base];
  if (transparent && !head.word.dynamic) {
    // `command -v x` only looks x up; a `-v` after the command name is that command's (`command rm -rf / -v`).
    const own = args.slice(0, wrapperStart(args, transparent, false) ?? args.length);
    if (base === 'command' && own.some((arg) => /^-[pvV]*[vV][pvV]*$/.test(arg.text))) return;
    record();
    if (base === 'env') {
      if (args.some((arg) => /^(-S|--split-string)/.test(arg.text))) {
        sink.addFinding(miss('shell-payload', 'env -S splits a string into a command: not analysable'));
        return;
      }
      const start = wrapperStart(args, transparent, true);
      const assigned = args.slice(0, start ?? args.length).filter((arg) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg.text));
      inner(start, { envNames: [...context.envNames, ...assigned.map((arg) => arg.text.split('=')[0] ?? '')] });
      return;
    }
    inner(wrapperStart(args, transparent, false));
    return;
  }

  const guarded = guardedWrappers[base];
  if (guarded && !head.word.dynamic) {
    record();
    if (base === 'flock') {
      const payload = optionValue(rest, ['-c', '--command']);
      if (payload) return shellPayload(sink, payload, context, base);
    }
    const start = wrapperStart(args, guarded, false);
    if (base === 'xargs') {
      // xargs runs `echo` when given no command; its arguments come from stdin.
      if (start === undefined) return;
      const piped = stdinText(context.stdin);
      if (piped !== undefined) {
        const [innerHead, ...innerArgs] = known.slice(start + 1);
        const words = piped
          .split(/\s+/)
          .filter(Boolean)
          .map((text) => ({ ...plainWord(text) }));
        for (const finding of hardFloorFindings(basename(innerHead?.text ?? ''), [...innerArgs, ...words], sink.home))
          sink.addFinding(finding);
      }
      inner(start, { stdin: undefined, argsUnknown: true });
      return;
    }
    inner(start);
    return;
  }

  if (base === 'su') {
    record();
    const payload = optionValue(rest, ['-c', '--command']);
    if (payload) shellPayload(sink, payload, context, base);
    return;
  }

  if (base === 'watch') {
    record();
    const start = wrapperStart(args, { valued: ['-n', '--interval', '-q', '--equexit'] }, false);
    if (start !== undefined) {
      const joined = rest.slice(start);
      shellPayloadText(
        sink,
        joined.map((item) => item.word.text).join(' '),
        joined.some((item) => item.word.dynamic),
        context,
        base,
      );
    }
    return;
  }

  if (base === 'eval' && !head.word.dynamic) {
    record();
    const dynamic = rest.filter((item) => item.word.dynamic);
    if (dynamic.length > 0) {
      sink.addFinding(miss('shell-payload', 'eval runs text only known at run time'));
      for (const item of dynamic) lookInside(sink, item, context, base);
      return;
    }
    sink.analyseSource(rest.map((item) => item.word.text).join(' '), context.depth + 1, [...context.via, base]);
    return;
  }

  if (shells.has(base) && !head.word.dynamic) {
    shellInvocation(sink, rest, context, base, record);
    return;
  }

  if (base === 'find') {
    findInvocation(sink, rest, context, record);
    return;
  }

  if (interpreters.test(base)) {
    // node, python and bun have their own option tables (programs/); the rest are matched here.
    const known = knowledgeOf(base) ? riskyUse(base, args, where(sink)) : undefined;
    if (known) {
      record(flagged(known));
      return;
    }
    const rule = knowledgeOf(base) ? undefined : inlineCodeOptions.find((candidate) => candidate.test(base));
    const inlineIndex = rule ? args.findIndex((arg) => rule.options.test(arg.text)) : -1;
    if (inlineIndex >= 0) {
      const spelled = args[inlineIndex]?.text ?? '';
      record({ needsArgPattern: `${base} ${spelled} runs inline code`, riskySpellings: [spelled] });
      return;
    }
    const script = args.find((arg) => !arg.text.startsWith('-'));
    if (!script && context.stdin) {
      sink.addFinding(miss('interpreter-stdin', `${base} runs code piped into it`));
      lookAtStdin(sink, context, base, false);
    } else if (script?.dynamic) {
      sink.addFinding(miss('interpreter-payload', `${base} runs a script only known at run time`));
    }
    record();
    return;
  }

  if (base === 'tee') {
    for (const arg of args.filter((word) => !word.text.startsWith('-'))) {
      const finding = writeTargetFinding(arg, sink.options.cwd, sink.home, 'tee writes');
      if (finding) sink.addFinding(finding);
    }
  }

  if (base === '.' || base === 'source') {
    const script = args[0];
    if (script?.dynamic) sink.addFinding(miss('shell-payload', `${base} runs a script only known at run time`));
  }

  const risky = riskyUse(base, args, where(sink));
  record(risky ? flagged(risky) : {});
}

function where(sink: InvocationSink): { cwd: string; home: string | undefined } {
  return { cwd: sink.options.cwd, home: sink.home };
}

function flagged(risky: RiskyUse): Partial<AnalyzedCommand> {
  return { needsArgPattern: risky.reason, riskySpellings: risky.spelled };
}

function plainWord(text: string): ShellWord {
  return { text, raw: text, dynamic: false, ansiC: false, brace: false, glob: false };
}

/** What stdin would carry, when it is a literal (here-string, heredoc, `echo … |`). */
function stdinText(stdin: StdinSource | undefined): string | undefined {
  if (!stdin) return undefined;
  if (stdin.kind === 'text') return stdin.text;
  return staticOutputOfStages(stdin.stages)?.text;
}

/** A word with known variables and literal `$(echo …)` substituted (for the hard floor only). */
function knownWord(item: WordItem, variables: ReadonlyMap<string, string>): ShellWord {
  const word = item.word;
  if (!word.dynamic) return word;
  if (item.node?.type === 'command_substitution' || item.node?.type === 'string') {
    const substitution =
      item.node.type === 'command_substitution'
        ? item.node
        : item.node.namedChildren.length === 1 && item.node.namedChildren[0]?.type === 'command_substitution'
          ? item.node.namedChildren[0]
          : undefined;
    const output = substitution ? staticOutputOfSubstitution(substitution) : undefined;
    if (output) return plainWord(output.text.trim());
  }
  const text = word.text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, a, b) => {
    const name = a ?? b;
    return name !== 'HOME' && variables.has(name) ? (variables.get(name) ?? '') : match;
  });
  return text === word.text ? word : { ...word, text };
}

function miss(code: Finding['code'], detail: string): Finding {
  return { code, detail, severity: 'miss' };
}

function findInvocation(
  sink: InvocationSink,
  rest: WordItem[],
  context: InvocationContext,
  record: (extra?: Partial<AnalyzedCommand>) => void,
): void {
  const args = rest.map((item) => item.word);
  const risky = riskyUse('find', args, where(sink));
  record(risky ? flagged(risky) : {});
  for (let index = 0; index < rest.length; index++) {
    const text = rest[index]?.word.text ?? '';
    if (!/^-(exec|execdir|ok|okdir)$/.test(text)) continue;
    let end = index + 1;
    while (end < rest.length && !/^(;|\+)$/.test(rest[end]?.word.text ?? '')) end++;
    const innerItems = rest.slice(index + 1, end);
    analyseInvocation(sink, innerItems, {
      ...context,
      stdin: undefined,
      argsUnknown: true,
      via: [...context.via, 'find'],
      source: innerItems.map((item) => item.word.raw).join(' '),
    });
    index = end;
  }
}
