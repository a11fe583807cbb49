// Code handed to a shell as text (`bash -c`, `eval`, `… | sh`): parsed again and analysed like the outer command.
import type { AnalyzedCommand, Finding } from './analysis-types.js';
import type { SyntaxNode } from './bash-parser.js';
import type { InvocationContext, InvocationSink, WordItem } from './invocation-types.js';
import { staticOutputOfStages, staticOutputOfSubstitution } from './static-output.js';

/** `bash -c X`, `sh -c X`: analyse X as shell; a payload only known at run time is a miss. */
export function shellInvocation(
  sink: InvocationSink,
  rest: WordItem[],
  context: InvocationContext,
  base: string,
  record: (extra?: Partial<AnalyzedCommand>) => void,
): void {
  let index = 0;
  let inline = false;
  for (; index < rest.length; index++) {
    const text = rest[index]?.word.text ?? '';
    if (text === '--' || text === '-') {
      index++;
      break;
    }
    if (/^[-+]o$/.test(text) || text === '-O' || text === '+O' || text === '--rcfile' || text === '--init-file') {
      index++;
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(text)) {
      if (text.startsWith('-') && text.includes('c')) inline = true;
      continue;
    }
    if (text.startsWith('--')) continue;
    break;
  }
  const positional = rest[index];
  record();
  if (inline) {
    if (!positional) return;
    shellPayload(sink, positional, context, base);
    return;
  }
  if (positional && (base !== 'busybox' || positional.word.text !== 'sh')) {
    if (positional.word.dynamic)
      sink.addFinding(miss('shell-payload', `${base} runs a script only known at run time (${positional.word.raw})`));
    return;
  }
  // No script: the shell reads its program from stdin.
  sink.addFinding(miss('shell-stdin', `${base} runs commands piped into it`));
  lookAtStdin(sink, context, base, true);
}

export function shellPayload(sink: InvocationSink, payload: WordItem, context: InvocationContext, base: string): void {
  if (payload.word.dynamic) {
    sink.addFinding(miss('shell-payload', `${base} runs text only known at run time`));
    lookInside(sink, payload, context, base);
    return;
  }
  if (payload.word.ansiC) sink.addFinding(miss('obfuscation', `${base} runs escape-encoded text`));
  sink.analyseSource(payload.word.text, context.depth + 1, [...context.via, base]);
}

export function shellPayloadText(
  sink: InvocationSink,
  text: string,
  dynamic: boolean,
  context: InvocationContext,
  base: string,
): void {
  if (dynamic) sink.addFinding(miss('shell-payload', `${base} runs text only known at run time`));
  sink.analyseSource(text, context.depth + 1, [...context.via, base]);
}

/** For payloads built by `$(echo … | base64 -d)`: decode and analyse what would run (for the hard floor). */
export function lookInside(sink: InvocationSink, item: WordItem, context: InvocationContext, base: string): void {
  const substitutions = item.node
    ? [item.node, ...item.node.descendantsOfType('command_substitution')].filter(
        (node): node is SyntaxNode => node?.type === 'command_substitution',
      )
    : [];
  for (const substitution of substitutions) {
    const output = staticOutputOfSubstitution(substitution);
    if (!output) continue;
    if (output.decoded) sink.addFinding(miss('obfuscation', `${base} runs decoded text`));
    sink.analyseSource(output.text, context.depth + 1, [...context.via, base]);
  }
}

export function lookAtStdin(sink: InvocationSink, context: InvocationContext, base: string, isShell: boolean): void {
  const stdin = context.stdin;
  if (!stdin) return;
  const output = stdin.kind === 'text' ? { text: stdin.text, decoded: false } : staticOutputOfStages(stdin.stages);
  if (!output) return;
  if (output.decoded) sink.addFinding(miss('obfuscation', `decoded text is piped into ${base}`));
  if (isShell) sink.analyseSource(output.text, context.depth + 1, [...context.via, base]);
}

function miss(code: Finding['code'], detail: string): Finding {
  return { code, detail, severity: 'miss' };
}
