import { extname, resolve } from 'node:path';
import type { CommandAnalysis } from './analysis-types.js';
import { basename } from './invocation-rules.js';

export interface PreflightIssue {
  code: 'wrong-interpreter' | 'shell-variable-in-script' | 'shell-variable-in-inline-code';
  detail: string;
}

export interface PreflightDeps {
  /** Reads a script (first bytes suffice); undefined when missing or unreadable. */
  readScript(path: string): Promise<string | undefined>;
}

type Family = 'python' | 'node' | 'shell' | 'ruby' | 'perl';

const familyOfInterpreter = (name: string): Family | undefined => {
  if (/^python[0-9.]*$/.test(name) || name === 'pypy3') return 'python';
  if (['node', 'nodejs', 'bun', 'deno', 'tsx', 'ts-node'].includes(name)) return 'node';
  if (['sh', 'bash', 'dash', 'zsh', 'ksh'].includes(name)) return 'shell';
  if (name === 'ruby') return 'ruby';
  if (name === 'perl') return 'perl';
  return undefined;
};

const familyOfExtension: Record<string, Family> = {
  '.py': 'python',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.ts': 'node',
  '.mts': 'node',
  '.sh': 'shell',
  '.bash': 'shell',
  '.rb': 'ruby',
  '.pl': 'perl',
};

/**
 * Mistakes an agent makes when it writes and runs scripts, caught before running:
 * a JS file handed to python or bash, and shell variables that leaked into a
 * script body (an unquoted heredoc or `python -c "…$x…"` lets the shell rewrite the
 * code). Reported back to the model instead of running, so it fixes the script.
 */
export async function preflightScripts(
  analysis: CommandAnalysis,
  cwd: string,
  deps: PreflightDeps,
): Promise<PreflightIssue[]> {
  const issues: PreflightIssue[] = [];
  for (const command of analysis.commands) {
    const interpreter = basename(command.name.text);
    const family = familyOfInterpreter(interpreter);
    if (!family) continue;
    const inline = command.args.findIndex((arg) => /^-[a-zA-Z]*[ce]$|^--eval$|^-p$/.test(arg.text));
    if (inline >= 0) {
      const code = command.args[inline + 1];
      if (family !== 'shell' && code?.dynamic && /\$\{?[A-Za-z_]/.test(code.raw) && code.raw.startsWith('"'))
        issues.push({
          code: 'shell-variable-in-inline-code',
          detail: `the shell expands ${code.raw.match(/\$\{?[A-Za-z_]\w*\}?/)?.[0]} inside the ${interpreter} code before ${interpreter} sees it; use single quotes and pass values as arguments or environment variables`,
        });
      continue;
    }
    const script = command.args.find((arg) => !arg.text.startsWith('-'));
    if (!script || script.dynamic) continue;
    const expected = familyOfExtension[extname(script.text).toLowerCase()];
    if (expected && expected !== family) {
      issues.push({
        code: 'wrong-interpreter',
        detail: `${script.text} looks like a ${expected} script but is run with ${interpreter}`,
      });
      continue;
    }
    const body = await deps.readScript(resolve(cwd, script.text));
    if (body === undefined) continue;
    const shebang = /^#!\s*(?:\/usr\/bin\/env\s+)?(?:\S*\/)?(\S+)/.exec(body)?.[1];
    const shebangFamily = shebang ? familyOfInterpreter(shebang) : undefined;
    if (shebangFamily && shebangFamily !== family) {
      issues.push({
        code: 'wrong-interpreter',
        detail: `${script.text} starts with #!${shebang} but is run with ${interpreter}`,
      });
      continue;
    }
    if (family === 'python' || family === 'node') {
      const leaked = leakedShellVariable(body, family);
      if (leaked)
        issues.push({
          code: 'shell-variable-in-script',
          detail: `${script.text} contains ${leaked}, a shell variable in ${family} code (was it written through an unquoted heredoc?)`,
        });
    }
  }
  return issues;
}

/** `$HOME` or `${VAR}` outside of JS template literals: shell syntax where it cannot work. */
function leakedShellVariable(body: string, family: 'python' | 'node'): string | undefined {
  const withoutComments = body.replace(family === 'python' ? /#.*$/gm : /\/\/.*$/gm, '');
  if (family === 'python') return /\$\{[A-Za-z_]\w*\}|\$[A-Z][A-Z0-9_]+\b/.exec(withoutComments)?.[0];
  // In JS, `${x}` inside backticks is a template literal: look only outside them.
  const outsideTemplates = withoutComments.replace(/`(?:\\.|[^`\\])*`/gs, '``');
  return /\$\{[A-Za-z_]\w*\}|\$[A-Z][A-Z0-9_]{2,}\b/.exec(outsideTemplates)?.[0];
}
