import type { AnalyzeOptions, CommandAnalysis, Finding } from './analysis-types.js';
import type { BashParser, SyntaxNode } from './bash-parser.js';
import { analyseInvocation, type InvocationSink, type StdinSource, type WordItem } from './invocation-rules.js';
import { wordValue } from './shell-words.js';
import { staticOutputOfSubstitution } from './static-output.js';
import { writeTargetFinding } from './write-targets.js';

/** `eval "$(…)"` inside `bash -c` inside `sudo`…: deeper than this is itself suspicious. */
const maxNesting = 6;

const writeOperators = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Variables that change what later commands mean when assigned on their own. */
const sensitiveVariable =
  /^(PATH|IFS|HOME|ENV|BASH_ENV|CDPATH|GLOBIGNORE|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|PS4|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|LD_.*|DYLD_.*|BASH_FUNC_.*|GIT_.*)$/;

/**
 * Finds every command a bash input would start and everything about it the policy
 * needs: the words after unquoting, wrappers, payloads of `bash -c`/`eval`, write
 * redirects, and the hard-floor and obfuscation findings.
 */
export function analyseCommand(parser: BashParser, source: string, options: AnalyzeOptions): CommandAnalysis {
  const analysis: CommandAnalysis = { source, commands: [], findings: [], parseError: false };
  const walker = new Walker(parser, options, analysis);
  walker.analyseSource(source, 0, []);
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

  constructor(
    private readonly parser: BashParser,
    readonly options: AnalyzeOptions,
    private readonly analysis: CommandAnalysis,
  ) {}

  get home(): string | undefined {
    return this.options.home;
  }

  addFinding(finding: Finding): void {
    this.analysis.findings.push(finding);
  }

  addCommand(command: CommandAnalysis['commands'][number]): void {
    this.analysis.commands.push(command);
  }

  analyseSource(source: string, depth: number, via: string[]): void {
    if (depth > maxNesting) {
      this.addFinding({ code: 'nesting-too-deep', detail: 'commands nested too deeply to analyse', severity: 'miss' });
      return;
    }
    this.parser.withTree(source, (root) => {
      if (root.hasError) {
        this.analysis.parseError = true;
        this.addFinding({
          code: 'parse-error',
          detail: 'the command could not be parsed (unbalanced quotes or unsupported syntax)',
          severity: 'miss',
        });
      }
      this.visit(root, { depth, via });
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
        this.pipeline(node, scope);
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
      case 'negated_command':
      case 'subshell':
      case 'compound_statement':
        for (const child of node.namedChildren) this.visit(child, scope, stdin);
        return;
      default:
        for (const child of node.namedChildren) this.visit(child, scope);
    }
  }

  private pipeline(node: SyntaxNode, scope: Scope): void {
    const stages = node.namedChildren.filter((child) => child.type !== 'comment');
    stages.forEach((stage, index) => {
      const stdin: StdinSource | undefined = index > 0 ? { kind: 'pipe', stages: stages.slice(0, index) } : undefined;
      this.visit(stage, scope, stdin);
    });
  }

  private redirectedStatement(node: SyntaxNode, scope: Scope, stdin: StdinSource | undefined): void {
    const body = node.childForFieldName('body') ?? node.namedChildren[0];
    const extras: SyntaxNode[] = [];
    let bodyStdin = stdin;
    for (const child of node.namedChildren) {
      if (child === body || child.id === body?.id) continue;
      if (child.type === 'file_redirect') extras.push(...this.redirect(child, scope));
      else if (child.type === 'herestring_redirect') {
        bodyStdin = { kind: 'text', text: wordValue(child.namedChildren[0] ?? child).text, node: child };
        this.visit(child, scope);
      } else if (child.type === 'heredoc_redirect') {
        const bodyNode = child.namedChildren.find((part) => part.type === 'heredoc_body');
        bodyStdin = { kind: 'text', text: bodyNode?.text ?? '', node: child };
        this.visit(child, scope);
      } else this.visit(child, scope);
    }
    if (body) this.visit(body, scope, bodyStdin, extras);
  }

  /** Checks a redirect; returns words tree-sitter attached to it that are really the command's arguments. */
  private redirect(node: SyntaxNode, scope: Scope): SyntaxNode[] {
    const operator = node.children.find((child) => !child.isNamed && child.type !== 'file_descriptor')?.type ?? '';
    const words = node.namedChildren.filter((child) => child.type !== 'file_descriptor');
    const [destination, ...extras] = words;
    if (!destination) return extras;
    this.visit(destination, scope);
    if (writeOperators.has(operator)) {
      const target = wordValue(destination);
      const isDup = operator === '>&' && /^(\d+|-)$/.test(target.text);
      if (!isDup) {
        const finding = writeTargetFinding(target, this.options.cwd, this.home, `redirect ${operator}`);
        if (finding) this.addFinding(finding);
      }
    }
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
    const value = valueNode ? wordValue(valueNode) : undefined;
    if (value && !value.dynamic) this.variables.set(name, value.text);
    else if (!valueNode) this.variables.set(name, '');
    else this.variables.delete(name);
    if (sensitiveVariable.test(name))
      this.addFinding({
        code: 'sensitive-assignment',
        detail: `assigns ${name}, which changes what later commands run`,
        severity: 'miss',
      });
    for (const child of node.namedChildren.slice(1)) this.visit(child, scope);
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
        commandStdin = { kind: 'text', text: wordValue(child.namedChildren[0] ?? child).text, node: child };
        this.visit(child, scope);
      } else if (child.type === 'heredoc_redirect') {
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
      word: wordValue(item),
      node: item,
    }));
    analyseInvocation(this, items, {
      envNames,
      via: scope.via,
      stdin: commandStdin,
      depth: scope.depth,
      source: node.text,
    });
  }
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
