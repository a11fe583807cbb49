import { posix } from 'node:path';
import type { AnalyzedCommand, AnalyzeOptions, CommandAnalysis, Finding } from './analysis-types.js';
import type { BashParser, SyntaxNode } from './bash-parser.js';
import { peelPayloadWrapper } from './command-wrappers.js';
import { usualTopLevel } from './floor-targets.js';
import { floorFindings } from './hard-floor.js';
import { codeEffects, codeLiterals, inlineCodeOf } from './inline-code.js';
import { analyseInvocation, type InvocationSink, type StdinSource, type WordItem } from './invocation-rules.js';
import { sensitiveReadFindings } from './sensitive-reads.js';
import { type ShellWord, wordValue } from './shell-words.js';
import { staticOutputOfStages, staticOutputOfSubstitution } from './static-output.js';
import { type FlowFacts, type WordValues, wordValues } from './word-values.js';
import { writeTargetFinding } from './write-targets.js';

/** `eval "$(…)"` inside `bash -c` inside `sudo`…: deeper than this is itself suspicious. */
const maxNesting = 6;

const writeOperators = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
const readOperators = new Set(['<', '<>', '<&']);

/** Variables that change what later commands mean when assigned on their own. */
const sensitiveVariable =
  /^(PATH|IFS|HOME|ENV|BASH_ENV|CDPATH|GLOBIGNORE|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|PS4|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|LD_.*|DYLD_.*|BASH_FUNC_.*|GIT_.*)$/;

const shellNames = /^(sh|bash|dash|zsh|ksh|mksh|ash|fish)$/;
const interpreterNames =
  /^(python[0-9.]*|pypy3?|perl|ruby|lua|luajit|Rscript|node|nodejs|bun|deno|php|osascript|[gmn]?awk)$/;

/**
 * Finds every command a bash input would start and everything about it the policy
 * needs: the words after unquoting, wrappers, payloads of `bash -c`/`eval`, write
 * redirects, and the hard-floor and obfuscation findings.
 *
 * Its view of what runs is meant to be a superset of what bash runs; the
 * differential oracle (oracle/) checks that against real runs. To stay a superset
 * it over-approximates: variables keep every value they were ever given, `cd` adds
 * a possible working folder instead of replacing it, and text a command hands to
 * a shell (stdin, `ssh host …`, `trap`, `system("…")` in inline code) is analysed
 * as shell again.
 */
export function analyseCommand(parser: BashParser, source: string, options: AnalyzeOptions): CommandAnalysis {
  const analysis: CommandAnalysis = { source, commands: [], findings: [], parseError: false };
  const walker = new Walker(parser, options, analysis);
  const stdin = options.stdin === undefined ? undefined : { text: options.stdin };
  walker.analyseSource(source, 0, [], stdin);
  analysis.findings = dedupe(analysis.findings);
  return analysis;
}

interface Scope {
  depth: number;
  via: string[];
}

class Walker implements InvocationSink {
  /** Plain `name=value` assignments seen so far, so `x=/; rm -rf $x` is still recognised. */
  readonly variables = new Map<string, string>();
  /** Every value a variable was given (loops, branches, reassignment); `undefined` = unknowable. */
  private readonly values = new Map<string, string[] | undefined>();
  /** Nesting of the source being analysed, where each variable was first set, and what is exported. */
  private depth = 0;
  private readonly assignedAt = new Map<string, number>();
  private readonly exported = new Set<string>();
  /** Folders commands may run in; `cd` adds one, nothing removes one. */
  private readonly cwds: string[];
  private cwdUnknown = false;
  /** Syntax nodes of the words, so the floor can look inside `$(echo …)` of wrapped commands too. */
  private readonly nodes = new WeakMap<ShellWord, SyntaxNode>();
  /** Files the input itself writes with knowable text (`echo 'rm -rf /' > x.sh`), by absolute path. */
  private readonly written = new Map<string, string>();
  /** Stdin of the command whose invocation is being analysed (wrapped commands share it). */
  private currentStdin: StdinSource | undefined;

  constructor(
    private readonly parser: BashParser,
    readonly options: AnalyzeOptions,
    private readonly analysis: CommandAnalysis,
  ) {
    this.cwds = [options.cwd];
  }

  get home(): string | undefined {
    return this.options.home;
  }

  private facts(): FlowFacts {
    return { variables: this.visibleValues(), home: this.home, cwds: this.cwds, cwdUnknown: this.cwdUnknown };
  }

  /**
   * In a child shell (`sh -c`, `… | sh`) a variable the parent set without `export` is unset:
   * its values there include the empty string (`v=build; sh -c 'rm -rf "$v"/'` is `rm -rf /`).
   */
  private visibleValues(): ReadonlyMap<string, readonly string[] | undefined> {
    if (this.depth === 0) return this.values;
    const visible = new Map(this.values);
    for (const [name, values] of this.values) {
      const at = this.assignedAt.get(name) ?? 0;
      if (values !== undefined && at < this.depth && !this.exported.has(name)) visible.set(name, [...values, '']);
    }
    return visible;
  }

  private place() {
    return {
      home: this.home,
      cwds: this.cwds,
      cwdUnknown: this.cwdUnknown,
      topLevel: this.options.topLevel ?? usualTopLevel,
    };
  }

  addFinding(finding: Finding): void {
    this.analysis.findings.push(finding);
  }

  /** Every command the rules record passes here: the floor, sensitive reads and payload wrappers look at it. */
  addCommand(command: AnalyzedCommand): void {
    this.analysis.commands.push(command);
    const depth = command.via.length;
    if (depth > maxNesting * 2) return;
    const name = this.valuesOf(command.name);
    const words = command.args.map((arg) => this.valuesOf(arg));
    const viaFind = command.via.at(-1) === 'find';
    for (const value of name.values) {
      const base = posix.basename(value);
      const floor = { base, words, place: this.place(), argsUnknown: command.argsUnknown === true && !viaFind };
      for (const finding of floorFindings(floor)) this.addFinding(finding);
      for (const finding of sensitiveReadFindings(base, words, this.place(), this.options.sensitivePaths ?? []))
        this.addFinding(finding);
      this.lookIntoInterpreter(base, words, command.via);
      this.peelPayloads(base, command, words);
    }
    // The command itself is a file this input wrote (`echo … > x.sh; chmod +x x.sh; ./x.sh`).
    for (const value of name.values) this.runWrittenScript(value, command.via);
    this.judgeMovedFolder(command, words);
    if (name.unknown && command.name.dynamic) {
      // `$SHELL -c '…'`, `"$(which bash)" -c '…'`: an unknown program may be a shell.
      const inline = words.findIndex((word) => word.values.some((text) => /^-[a-zA-Z]*c$/.test(text)));
      const payload = inline >= 0 ? words[inline + 1] : undefined;
      if (payload)
        for (const text of payload.values)
          this.analyseSource(text, command.via.length + 1, [...command.via, command.name.raw]);
    }
    if (name.unknown && command.name.dynamic && words.some((word) => word.values.some((text) => text.startsWith('-r'))))
      this.addFinding({
        code: 'floor-unknown',
        detail: `cannot tell which program ${command.name.raw} is, and it is given recursive options (recursive-delete-root)`,
        severity: 'person',
      });
  }

  private valuesOf(word: ShellWord): WordValues {
    return wordValues(word, this.nodes.get(word), this.facts());
  }

  analyseSource(source: string, depth: number, via: string[], stdin?: { text: string }): void {
    if (depth > maxNesting) {
      this.addFinding({ code: 'nesting-too-deep', detail: 'commands nested too deeply to analyse', severity: 'miss' });
      return;
    }
    // tree-sitter-bash takes `time while …`, `time f() {…}` for a command named time: the keyword
    // changes nothing about what runs, so it is dropped before such a compound command.
    const untimed = this.parser.withTree(source, (root) => (timesCompound(root) ? dropTimeKeyword(source) : source));
    const repaired = this.parser.withTree(untimed, (root) =>
      continuesAcrossLines(root) ? unglueLines(untimed) : undefined,
    );
    if (repaired !== undefined) {
      // tree-sitter-bash glues a line that starts with `\` onto the line before (`echo hi` then
      // `\rm -rf /` becomes one echo): found by the differential oracle. Such input counts as
      // unparsed, and is analysed as bash reads it: `'r'm` is the same word as `\rm`.
      this.analysis.parseError = true;
      this.addFinding({
        code: 'parse-error',
        detail: 'a line starting with a backslash could not be parsed reliably; it is analysed as its own command',
        severity: 'miss',
      });
    }
    source = repaired ?? untimed;
    const outerDepth = this.depth;
    this.depth = depth;
    try {
      this.walkSource(source, depth, via, stdin);
    } finally {
      this.depth = outerDepth;
    }
  }

  private walkSource(source: string, depth: number, via: string[], stdin?: { text: string }): void {
    this.parser.withTree(source, (root) => {
      if (root.hasError) {
        this.analysis.parseError = true;
        this.addFinding({
          code: 'parse-error',
          detail: 'the command could not be parsed (unbalanced quotes or unsupported syntax)',
          severity: 'miss',
        });
      }
      const top: StdinSource | undefined = stdin ? { kind: 'text', text: stdin.text, node: root } : undefined;
      this.visit(root, { depth, via }, top);
    });
  }

  private visit(node: SyntaxNode, scope: Scope, stdin?: StdinSource, extraArgs: SyntaxNode[] = []): void {
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        this.command(node, scope, stdin, extraArgs);
        return;
      case 'pipeline':
        this.pipeline(node, scope, stdin);
        return;
      case 'redirected_statement':
        this.redirectedStatement(node, scope, stdin);
        return;
      case 'file_redirect':
        for (const extra of this.redirect(node, scope)) this.visit(extra, scope);
        return;
      case 'function_definition':
        this.functionDefinition(node, scope);
        return;
      case 'variable_assignment':
        this.assignment(node, scope);
        return;
      case 'for_statement':
        this.forStatement(node, scope, stdin);
        return;
      case 'program':
      case 'list':
      case 'negated_command':
      case 'subshell':
      case 'compound_statement':
      case 'do_group':
      case 'if_statement':
      case 'elif_clause':
      case 'else_clause':
      case 'while_statement':
      case 'case_statement':
      case 'case_item':
        // Every command of a block reads the block's stdin (the first one that reads takes it).
        for (const child of node.namedChildren) this.visit(child, scope, stdin);
        return;
      default:
        for (const child of node.namedChildren) this.visit(child, scope);
    }
  }

  private pipeline(node: SyntaxNode, scope: Scope, stdin: StdinSource | undefined): void {
    const stages = node.namedChildren.filter((child) => child.type !== 'comment');
    let piped: { text: string } | undefined = stdin?.kind === 'text' ? { text: stdin.text } : undefined;
    stages.forEach((stage, index) => {
      let stageStdin: StdinSource | undefined = index === 0 ? stdin : { kind: 'pipe', stages: stages.slice(0, index) };
      if (index > 0 && piped) stageStdin = { kind: 'text', text: piped.text, node: stage };
      this.visit(stage, scope, stageStdin);
      piped = this.outputOf(stage, stageStdin, piped);
    });
  }

  /** What a pipeline stage prints when that is knowable (literal producers, `cat` of a heredoc, decoders). */
  private outputOf(
    stage: SyntaxNode,
    stdin: StdinSource | undefined,
    piped: { text: string } | undefined,
  ): { text: string } | undefined {
    if (stage.type === 'redirected_statement') {
      const body = stage.childForFieldName('body') ?? stage.namedChildren[0];
      const fed = stage.namedChildren.find(
        (child) => child.type === 'heredoc_redirect' || child.type === 'herestring_redirect',
      );
      const text = fed ? this.fedText(fed) : undefined;
      if (body && text !== undefined) return this.outputOf(body, { kind: 'text', text, node: fed ?? stage }, { text });
      return body ? this.outputOf(body, stdin, piped) : undefined;
    }
    const stdinText = stdin?.kind === 'text' ? stdin.text : piped?.text;
    if (stdinText !== undefined && stage.type === 'command') {
      const name = stage.childForFieldName('name')?.text ?? '';
      const args = stage.namedChildren.filter((child) => child.type !== 'command_name');
      // tee copies its input to stdout whatever files it also writes.
      if ((name === 'cat' && args.length === 0) || name === 'tee') return { text: stdinText };
    }
    const output = staticOutputOfStages([stage]);
    if (output) return { text: output.text };
    if (stdinText !== undefined) {
      const transformed = staticOutputOfStages([stage], stdinText);
      if (transformed) return { text: transformed.text };
    }
    return this.literalTexts(stage, stdinText);
  }

  /**
   * When a stage's output cannot be computed (`nice echo …`, `stdbuf -o0 cat <<EOF`,
   * `grep … | sh`), every literal it holds and the text it reads could reach its
   * output: a shell reading it is analysed over all of them, one per line.
   */
  private literalTexts(stage: SyntaxNode, stdinText: string | undefined): { text: string } | undefined {
    const texts: string[] = stdinText === undefined ? [] : [stdinText];
    const visit = (node: SyntaxNode) => {
      if (node.type === 'heredoc_body') texts.push(node.text);
      else if (node.type === 'command_name' || node.type === 'command_substitution') return;
      else if (
        node.type === 'word' ||
        node.type === 'raw_string' ||
        node.type === 'string' ||
        node.type === 'concatenation'
      ) {
        const word = wordValue(node);
        if (!word.dynamic) texts.push(word.text);
        return;
      }
      for (const child of node.namedChildren) visit(child);
    };
    visit(stage);
    return texts.length > 0 ? { text: texts.join('\n') } : undefined;
  }

  private fedText(redirect: SyntaxNode): string | undefined {
    if (redirect.type === 'herestring_redirect') {
      const word = wordValue(redirect.namedChildren[0] ?? redirect);
      return `${word.text}\n`;
    }
    return (
      heredocSourceBody(redirect) ?? redirect.namedChildren.find((part) => part.type === 'heredoc_body')?.text ?? ''
    );
  }

  /**
   * The heredoc's text, read from the source lines between its start and its end.
   * tree-sitter-bash takes a body line starting with `\` after `<<EOF | sh` for a line
   * continuation of the pipeline (found by the differential oracle): when its body
   * differs from the source, the input counts as unparsed and the real body is
   * analysed as shell as well, so what it would run is still seen.
   */
  private heredocText(redirect: SyntaxNode, scope: Scope): string {
    // `<<-` strips leading tabs; tree-sitter's body may or may not have them.
    const dash = redirect.children.some((part) => part.type === '<<-');
    const strip = (text: string) => (dash ? text.replace(/^\t+/gm, '') : text);
    const parsed = strip(redirect.namedChildren.find((part) => part.type === 'heredoc_body')?.text ?? '');
    const raw = heredocSourceBody(redirect);
    const source = raw === undefined ? undefined : strip(raw);
    if (source === undefined || source === parsed) return parsed;
    this.analysis.parseError = true;
    this.addFinding({
      code: 'parse-error',
      detail: 'a heredoc could not be parsed reliably; its text is analysed as commands too',
      severity: 'miss',
    });
    this.analyseSource(source, scope.depth + 1, scope.via);
    return source;
  }

  private redirectedStatement(node: SyntaxNode, scope: Scope, stdin: StdinSource | undefined): void {
    const body = node.childForFieldName('body') ?? node.namedChildren[0];
    const extras: SyntaxNode[] = [];
    let bodyStdin = stdin;
    // tree-sitter hangs `> f` of `cd /etc && echo x > f` on the whole list: judge it after the
    // list has run its `cd`s, as bash would for the last command.
    const deferred: SyntaxNode[] = [];
    for (const child of node.namedChildren) {
      if (child === body || child.id === body?.id) continue;
      if (child.type === 'file_redirect' && body && body.type !== 'command') deferred.push(child);
      else if (child.type === 'file_redirect') extras.push(...this.redirect(child, scope));
      else if (child.type === 'herestring_redirect') {
        bodyStdin = { kind: 'text', text: wordValue(child.namedChildren[0] ?? child).text, node: child };
        this.visit(child, scope);
      } else if (child.type === 'heredoc_redirect') {
        const text = this.heredocText(child, scope);
        bodyStdin = { kind: 'text', text, node: child };
        // `cat <<EOF | sh`: tree-sitter hangs the rest of the pipeline under the heredoc.
        for (const part of child.namedChildren) {
          if (part.type === 'pipeline' || part.type === 'command' || part.type === 'redirected_statement') {
            const produced = body ? this.outputOf(body, bodyStdin, { text }) : undefined;
            const fed: StdinSource = produced
              ? { kind: 'text', text: produced.text, node: part }
              : { kind: 'pipe', stages: body ? [body] : [] };
            if (part.type === 'pipeline') this.pipeline(part, scope, fed);
            else this.visit(part, scope, fed);
          } else this.visit(part, scope);
        }
      } else this.visit(child, scope);
    }
    if (body) this.visit(body, scope, bodyStdin, extras);
    if (body) this.rememberWrites(node, body, bodyStdin);
    for (const redirect of deferred) for (const extra of this.redirect(redirect, scope)) this.visit(extra, scope);
  }

  /** Checks a redirect; returns words tree-sitter attached to it that are really the command's arguments. */
  private redirect(node: SyntaxNode, scope: Scope): SyntaxNode[] {
    const operator = node.children.find((child) => !child.isNamed && child.type !== 'file_descriptor')?.type ?? '';
    const words = node.namedChildren.filter((child) => child.type !== 'file_descriptor');
    const [destination, ...extras] = words;
    if (!destination) return extras;
    this.visit(destination, scope);
    const target = wordValue(destination);
    this.nodes.set(target, destination);
    if (writeOperators.has(operator)) {
      const isDup = (operator === '>&' || operator === '<&') && /^(\d+|-)$/.test(target.text);
      if (!isDup) {
        // Judged from every folder the command may run in (`cd /etc && echo x > passwd`).
        const folders = this.cwdUnknown ? [this.options.cwd, '/'] : this.cwds;
        for (const cwd of new Set(folders)) {
          const finding = writeTargetFinding(target, this.options.cwd, this.home, `redirect ${operator}`, cwd);
          if (finding) {
            this.addFinding(finding);
            break;
          }
        }
      }
    }
    if (readOperators.has(operator) && !/^(\d+|-)$/.test(target.text))
      for (const finding of sensitiveReadFindings(
        '<',
        [this.valuesOf(target)],
        this.place(),
        this.options.sensitivePaths ?? [],
      ))
        this.addFinding(finding);
    return extras;
  }

  private functionDefinition(node: SyntaxNode, scope: Scope): void {
    const name = node.childForFieldName('name')?.text ?? node.namedChildren[0]?.text ?? '';
    const body = node.childForFieldName('body') ?? node.namedChildren.at(-1);
    this.addFinding({
      code: 'function-definition',
      detail: `defines the shell function ${name}, which can shadow any command`,
      severity: 'miss',
    });
    if (body && isForkBomb(name, body))
      this.addFinding({
        code: 'fork-bomb',
        detail: `${name} calls itself in a pipe or background: a fork bomb`,
        severity: 'deny',
      });
    if (body) this.visit(body, scope);
  }

  private assignment(node: SyntaxNode, scope: Scope): void {
    const name = node.childForFieldName('name')?.text ?? node.namedChildren[0]?.text ?? '';
    const valueNode = node.childForFieldName('value') ?? node.namedChildren[1];
    const value = valueNode && valueNode.type !== 'array' ? wordValue(valueNode) : undefined;
    if (value && !value.dynamic) this.variables.set(name, value.text);
    else if (!valueNode) this.variables.set(name, '');
    else this.variables.delete(name);
    if (valueNode?.type === 'array') {
      // `a=(/ ~)`: every element is a value of `${a[@]}`.
      const elements = valueNode.namedChildren.map((element) => this.valuesOf(this.word(element)));
      this.assign(name, elements, false);
    } else if (valueNode && value) {
      this.assign(name, [wordValues(value, valueNode, this.facts())], false);
    } else this.assign(name, [{ raw: '', values: [''], unknown: false }], false);
    if (node.parent?.type === 'declaration_command' && node.parent.children[0]?.type === 'export')
      this.exported.add(name);
    if (sensitiveVariable.test(name))
      this.addFinding({
        code: 'sensitive-assignment',
        detail: `assigns ${name}, which changes what later commands run`,
        severity: 'miss',
      });
    for (const child of node.namedChildren.slice(1)) this.visit(child, scope);
  }

  /** Adds possible values to a variable (over-approximating: earlier values stay possible). */
  private assign(name: string, words: WordValues[], split: boolean): void {
    if (!this.assignedAt.has(name)) this.assignedAt.set(name, this.depth);
    if (this.values.has(name) && this.values.get(name) === undefined) return;
    if (words.some((word) => word.unknown)) {
      this.values.set(name, undefined);
      return;
    }
    const texts = words.flatMap((word) => (split ? word.values.flatMap((text) => text.split(/\s+/)) : word.values));
    this.values.set(name, [...new Set([...(this.values.get(name) ?? []), ...texts])]);
  }

  private word(node: SyntaxNode): ShellWord {
    const word = wordValue(node);
    this.nodes.set(word, node);
    return word;
  }

  /** `for d in ~ /tmp; do …`: `$d` takes each value; `for d; do` takes the unknown arguments. */
  private forStatement(node: SyntaxNode, scope: Scope, stdin: StdinSource | undefined): void {
    const variable =
      node.childForFieldName('variable') ?? node.namedChildren.find((child) => child.type === 'variable_name');
    const body = node.childForFieldName('body') ?? node.namedChildren.find((child) => child.type === 'do_group');
    const items = node.namedChildren.filter((child) => child !== variable && child !== body && child.id !== body?.id);
    for (const item of items) this.visit(item, scope);
    if (variable) {
      const name = variable.text;
      if (items.length === 0) this.assign(name, [{ raw: '"$@"', values: [], unknown: true }], false);
      else
        this.assign(
          name,
          items.map((item) => this.valuesOf(this.word(item))),
          true,
        );
    }
    if (body) this.visit(body, scope, stdin);
  }

  /**
   * A command name built at run time from something knowable — `$(echo cm0g… | base64 -d)`,
   * `rm${IFS}-rf${IFS}/` — is obfuscation (never allowed) and is also spelled out and
   * analysed, so the hard floor sees what would really run.
   */
  private lookBehindObfuscation(node: SyntaxNode, nameNode: SyntaxNode, argNodes: SyntaxNode[], scope: Scope): void {
    const rest = argNodes.map((arg) => arg.text).join(' ');
    const substitution =
      nameNode.type === 'command_substitution'
        ? nameNode
        : nameNode.descendantsOfType('command_substitution').find((found) => found !== null);
    if (substitution) {
      const output = staticOutputOfSubstitution(substitution);
      if (output) {
        this.addFinding({ code: 'obfuscation', detail: 'the command is computed by a substitution', severity: 'miss' });
        this.analyseSource(`${output.text} ${rest}`, scope.depth + 1, scope.via);
      }
    }
    if (ifsExpansion.test(node.text)) {
      ifsExpansion.lastIndex = 0;
      this.addFinding({ code: 'obfuscation', detail: 'uses $IFS to split words', severity: 'miss' });
      this.analyseSource(node.text.replace(ifsExpansion, ' '), scope.depth + 1, scope.via);
    }
    ifsExpansion.lastIndex = 0;
  }

  private command(node: SyntaxNode, scope: Scope, stdin: StdinSource | undefined, extraArgs: SyntaxNode[]): void {
    const envNames: string[] = [];
    let nameNode: SyntaxNode | undefined;
    const argNodes: SyntaxNode[] = [];
    let commandStdin = stdin;
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') {
        envNames.push(child.childForFieldName('name')?.text ?? child.namedChildren[0]?.text ?? '');
        for (const value of child.namedChildren.slice(1)) this.visit(value, scope);
      } else if (child.type === 'command_name') {
        nameNode = child.namedChildren[0] ?? child;
        this.visit(nameNode, scope);
      } else if (child.type === 'file_redirect') {
        argNodes.push(...this.redirect(child, scope));
      } else if (child.type === 'herestring_redirect') {
        commandStdin = { kind: 'text', text: `${wordValue(child.namedChildren[0] ?? child).text}\n`, node: child };
        this.visit(child, scope);
      } else if (child.type === 'heredoc_redirect') {
        commandStdin = { kind: 'text', text: this.heredocText(child, scope), node: child };
        this.visit(child, scope);
      } else {
        argNodes.push(child);
        this.visit(child, scope);
      }
    }
    for (const extra of extraArgs) this.visit(extra, scope);
    if (!nameNode) return;
    this.lookBehindObfuscation(node, nameNode, argNodes, scope);
    const items: WordItem[] = [nameNode, ...argNodes, ...extraArgs].map((item) => ({
      word: this.word(item),
      node: item,
    }));
    const outer = this.currentStdin;
    this.currentStdin = commandStdin;
    try {
      analyseInvocation(this, items, {
        envNames,
        via: scope.via,
        stdin: commandStdin,
        depth: scope.depth,
        source: node.text,
      });
    } finally {
      this.currentStdin = outer;
    }
    this.trackState(items, commandStdin);
  }

  /** `cd`, `pushd`, `read`: what later commands see changes. */
  private trackState(items: WordItem[], stdin: StdinSource | undefined): void {
    const [head, ...rest] = items;
    if (!head || head.word.dynamic) return;
    const name = head.word.text;
    if (name === 'cd' || name === 'pushd') {
      const target = rest.find((item) => !/^-[LPe@]*$/.test(item.word.text) || item.word.dynamic);
      if (!target) {
        if (name === 'cd') this.addCwd(this.home);
        return;
      }
      const values = this.valuesOf(target.word);
      if (values.unknown || target.word.text === '-') this.cwdUnknown = true;
      for (const value of values.values) this.addCwd(value);
    } else if (name === 'popd') this.cwdUnknown = true;
    else if (name === 'read' || name === 'mapfile' || name === 'readarray') {
      const names = rest
        .filter((item) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(item.word.text))
        .map((item) => item.word.text);
      const fed = this.stdinText(stdin);
      for (const variable of names.length > 0 ? names : ['REPLY']) {
        if (fed === undefined) this.assign(variable, [{ raw: name, values: [], unknown: true }], false);
        else this.assign(variable, [{ raw: name, values: [fed.trim()], unknown: false }], true);
      }
    }
  }

  private addCwd(value: string | undefined): void {
    if (value === undefined) {
      this.cwdUnknown = true;
      return;
    }
    for (const cwd of [...this.cwds]) {
      const next = value.startsWith('/') ? posix.normalize(value) : posix.join(cwd, value);
      if (/[*?[]/.test(next)) this.cwdUnknown = true;
      else if (!this.cwds.includes(next)) this.cwds.push(next);
    }
  }

  /** Inline code (`python3 -c`, `perl -e`, awk programs) and code fed on stdin: what it runs and deletes. */
  private lookIntoInterpreter(base: string, words: WordValues[], via: string[]): void {
    if (!interpreterNames.test(base)) return;
    const inline = inlineCodeOf(base, words);
    const stdinText = this.stdinText(this.currentStdin);
    const codes = inline ? inline.code : stdinText !== undefined && !/awk$/.test(base) ? [stdinText] : [];
    for (const code of codes) {
      // Paths the code names are read as much as `cat` would read them.
      const literals = codeLiterals(code, this.home).map((text) => ({
        raw: JSON.stringify(text),
        values: [text],
        unknown: false,
      }));
      for (const finding of sensitiveReadFindings(base, literals, this.place(), this.options.sensitivePaths ?? []))
        this.addFinding({ ...finding, detail: `${base} code: ${finding.detail}` });
      const effects = codeEffects(code, this.home);
      for (const text of effects.shellTexts) this.analyseSource(text, via.length + 1, [...via, base]);
      for (const deletion of effects.deletions) {
        for (const finding of floorFindings({
          base: 'rm',
          words: [{ raw: '-r', values: ['-r'], unknown: false }, deletion],
          place: this.place(),
        }))
          this.addFinding({ ...finding, detail: `${base} code: ${finding.detail}` });
      }
    }
  }

  private stdinText(stdin: StdinSource | undefined): string | undefined {
    if (!stdin) return undefined;
    if (stdin.kind === 'text') return stdin.text;
    return staticOutputOfStages(stdin.stages)?.text;
  }

  /** Wrappers that hand their words to a shell or run them elsewhere (busybox, ssh, script -c, at, trap…). */
  private peelPayloads(base: string, command: AnalyzedCommand, words: WordValues[]): void {
    const stdinText = this.stdinText(this.currentStdin);
    const peeled = peelPayloadWrapper(base, command.args, words);
    if (!peeled) {
      this.shellScriptFromSubstitution(base, command);
      return;
    }
    const via = [...command.via, base];
    const depth = via.length;
    for (const text of peeled.shellTexts)
      this.analyseSource(text, depth, via, stdinText === undefined ? undefined : { text: stdinText });
    if (peeled.argv)
      this.analyseSource(peeled.argv, depth, via, stdinText === undefined ? undefined : { text: stdinText });
    if (peeled.readsStdinScript && stdinText !== undefined) this.analyseSource(stdinText, depth, via);
    if (peeled.unknown)
      this.addFinding({ code: 'shell-payload', detail: `${base} runs text only known at run time`, severity: 'miss' });
  }

  /**
   * After a `cd`, a relative program path (`./build.sh`) and tee's relative targets are
   * not what the working folder says: the policy resolves them there, so they miss.
   */
  private judgeMovedFolder(command: AnalyzedCommand, words: WordValues[]): void {
    const moved = this.cwdUnknown || this.cwds.some((cwd) => cwd !== this.options.cwd);
    if (!moved) return;
    const name = command.name.text;
    if (name.includes('/') && !name.startsWith('/') && !name.startsWith('~'))
      this.addFinding({
        code: 'cwd-changed',
        detail: `${name} is relative, and a cd before it may have moved away from ${this.options.cwd}`,
        severity: 'miss',
      });
    if (posix.basename(name) !== 'tee') return;
    const folders = this.cwdUnknown ? [...this.cwds, '/'] : this.cwds;
    command.args.forEach((arg, index) => {
      if (arg.text.startsWith('-') || words[index]?.unknown) return;
      for (const cwd of folders) {
        const finding = writeTargetFinding(arg, this.options.cwd, this.home, 'tee writes', cwd);
        if (finding) {
          this.addFinding(finding);
          return;
        }
      }
    });
  }

  /** Records `> file` / `>> file` targets of a statement whose output is knowable. */
  private rememberWrites(node: SyntaxNode, body: SyntaxNode, stdin: StdinSource | undefined): void {
    for (const child of node.namedChildren) {
      if (child.type !== 'file_redirect') continue;
      const operator = child.children.find((part) => !part.isNamed && part.type !== 'file_descriptor')?.type ?? '';
      if (operator !== '>' && operator !== '>>' && operator !== '>|' && operator !== '&>') continue;
      const target = child.namedChildren.find((part) => part.type !== 'file_descriptor');
      if (!target) continue;
      const output = this.outputOf(body, stdin, stdin?.kind === 'text' ? { text: stdin.text } : undefined);
      if (!output) continue;
      for (const path of this.valuesOf(this.word(target)).values) {
        for (const absolute of this.absolutes(path)) {
          // Every text ever written there stays possible (`>` in one branch, `>>` in another).
          this.written.set(absolute, `${this.written.get(absolute) ?? ''}${output.text}\n`);
        }
      }
    }
  }

  private absolutes(path: string): string[] {
    if (path.startsWith('/')) return [posix.normalize(path)];
    if (this.home && (path === '~' || path.startsWith('~/'))) return [posix.join(this.home, path.slice(1))];
    return this.cwds.map((cwd) => posix.join(cwd, path));
  }

  /** Analyses a script the input wrote earlier, when it is run (as shell, or as an interpreter's code). */
  private runWrittenScript(path: string, via: string[], interpreter?: string): boolean {
    const scripts = this.absolutes(path)
      .map((absolute) => this.written.get(absolute))
      .filter((text): text is string => text !== undefined);
    for (const script of scripts) {
      if (interpreter) {
        const effects = codeEffects(script, this.home);
        for (const text of effects.shellTexts) this.analyseSource(text, via.length + 1, [...via, interpreter]);
        for (const deletion of effects.deletions)
          for (const finding of floorFindings({
            base: 'rm',
            words: [{ raw: '-r', values: ['-r'], unknown: false }, deletion],
            place: this.place(),
          }))
            this.addFinding({ ...finding, detail: `${interpreter} script: ${finding.detail}` });
      } else this.analyseSource(script.replace(/^#!.*\n/, ''), via.length + 1, via);
    }
    return scripts.length > 0;
  }

  /** `bash <(echo …)`, `source <(…)`, `sh /dev/stdin <<< …`, `bash x.sh` after writing x.sh: the script is text the input spells. */
  private shellScriptFromSubstitution(base: string, command: AnalyzedCommand): void {
    if (!shellNames.test(base) && base !== 'source' && base !== '.' && !interpreterNames.test(base)) return;
    const via = [...command.via, base];
    for (const arg of command.args) {
      if (
        !arg.text.startsWith('-') &&
        this.runWrittenScript(
          arg.text,
          via,
          !shellNames.test(base) && base !== 'source' && base !== '.' ? base : undefined,
        )
      )
        return;
      const node = this.nodes.get(arg);
      if (node?.type === 'process_substitution') {
        const output = staticOutputOfSubstitution(node);
        if (output) this.analyseSource(output.text, via.length, via);
        return;
      }
      if (/^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(arg.text)) {
        const text = this.stdinText(this.currentStdin);
        if (text !== undefined) this.analyseSource(text, via.length, via);
        return;
      }
      if (!arg.text.startsWith('-')) return;
    }
  }
}

const compoundStart = /^(while|until|if|for|case|select|function|\{|\(|\(\(|\[\[|time|!)$/;

function timesCompound(root: SyntaxNode): boolean {
  const commands = root.descendantsOfType('command').filter((found): found is SyntaxNode => found !== null);
  return commands.some((command) => {
    if (command.childForFieldName('name')?.text !== 'time') return false;
    const words = command.namedChildren.filter((child) => child.type !== 'command_name').map((child) => child.text);
    const first = words[0] === '-p' ? words[1] : words[0];
    return first !== undefined && (compoundStart.test(first) || /\(\)/.test(command.text));
  });
}

function dropTimeKeyword(source: string): string {
  let text = source;
  for (let round = 0; round < 4; round++) {
    const next = text.replace(/(^|[;&|\n(]\s*|\b(?:then|do|else)\s+)time(\s+-p)?\s+/g, '$1');
    if (next === text) break;
    text = next;
  }
  return text;
}

/** An unquoted word holding a line break: bash would have ended the command there. */
function continuesAcrossLines(root: SyntaxNode): boolean {
  return root
    .descendantsOfType('word')
    .some((word) => word !== null && /\n/.test(word.text) && !/\\\n/.test(word.text));
}

function unglueLines(source: string): string {
  // `\X` at the start of a line is the same word as `'X'` (or `"'"` for a quote).
  return source.replace(/\n([ \t]*)\\([^\n])/g, (_match, indent: string, char: string) =>
    char === "'" ? `\n${indent}"'"` : `\n${indent}'${char}'`,
  );
}

function heredocSourceBody(redirect: SyntaxNode): string | undefined {
  const end = redirect.namedChildren.find((part) => part.type === 'heredoc_end');
  const full = redirect.text;
  const firstLine = full.indexOf('\n');
  if (!end || firstLine < 0) return undefined;
  return full.slice(firstLine + 1, end.startIndex - redirect.startIndex);
}

/** Module-level so the class stays about walking; see Walker.lookBehindObfuscation. */
const ifsExpansion = /\$\{?IFS\}?/g;

function isForkBomb(name: string, body: SyntaxNode): boolean {
  const selfCalls = body
    .descendantsOfType('command')
    .filter((command) => command?.childForFieldName('name')?.text === name) as SyntaxNode[];
  if (selfCalls.length === 0) return false;
  const piped = selfCalls.some((call) => call.parent?.type === 'pipeline');
  const background = /(^|[^&>])&(?![&>])/.test(body.text);
  return piped || background;
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.code}\u0000${finding.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
