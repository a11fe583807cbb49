// What interpreters' inline code (`python3 -c`, `perl -e`, `node -e`, awk programs…) would run or delete.
import type { WordValues } from './word-values.js';

/** The code an interpreter is handed on its command line, if any (`-c CODE`, `-eCODE`, an awk program). */
export function inlineCodeOf(base: string, words: WordValues[]): { code: string[]; unknown: boolean } | undefined {
  const texts = words.map((word) => word.values[0] ?? '');
  const take = (index: number): { code: string[]; unknown: boolean } | undefined => {
    const word = words[index];
    return word ? { code: word.values, unknown: word.unknown } : undefined;
  };
  const attached = (text: string, letter: string) => {
    const at = text.indexOf(letter);
    return text.slice(at + 1);
  };
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index] ?? '';
    if (/^python[0-9.]*$|^pypy3?$/.test(base)) {
      if (/^-[a-zA-Z]*c/.test(text)) {
        const rest = attached(text, 'c');
        return rest ? { code: [rest], unknown: false } : take(index + 1);
      }
      if (!text.startsWith('-')) return undefined;
    } else if (base === 'perl' || base === 'ruby' || base === 'lua' || base === 'luajit' || base === 'Rscript') {
      if (!text.startsWith('-') || text === '-' || text === '--') return undefined;
      // Letters that take the rest of the word (`-MFile::Path`, `-Ilib`) end the cluster.
      const codeLetters = base === 'perl' ? 'eE' : 'e';
      const valued = base === 'perl' ? 'MmIxidDCl0' : base === 'ruby' ? 'rICExFK' : 'l';
      for (let at = 1; at < text.length; at++) {
        const letter = text[at] ?? '';
        if (codeLetters.includes(letter)) {
          const rest = text.slice(at + 1);
          return rest ? { code: [rest], unknown: false } : take(index + 1);
        }
        if (valued.includes(letter)) {
          // perl's valued letters take only the rest of the word; the others take the next word when empty.
          if (at === text.length - 1 && base !== 'perl') index++;
          break;
        }
      }
    } else if (['node', 'nodejs', 'bun', 'deno'].includes(base)) {
      const eq = /^(?:--eval|--print|-e|-p|-pe|-ep)=(.*)$/s.exec(text);
      if (eq) return { code: [eq[1] ?? ''], unknown: false };
      if (/^(-e|-p|--eval|--print|-pe|-ep|eval)$/.test(text)) return take(index + 1);
    } else if (base === 'php' && text === '-r') return take(index + 1);
    else if (base === 'osascript' && text === '-e') return take(index + 1);
    else if (/^[gmn]?awk$|^busybox-awk$/.test(base)) {
      if (text === '-f' || text.startsWith('--file')) return undefined;
      if (text === '-v' || text === '-F' || text === '--assign' || text === '--field-separator') {
        index++;
        continue;
      }
      if (text === '-e' || text === '--source') return take(index + 1);
      if (text.startsWith('-') && text !== '-') continue;
      return take(index);
    }
  }
  return undefined;
}

export interface CodeEffects {
  /** Shell command lines the code hands to a shell (`system("…")`, `os.system`, backticks…). */
  shellTexts: string[];
  /** The code runs a command built at run time. */
  runsUnknown: boolean;
  /** Paths the code removes recursively (`shutil.rmtree`, `fs.rmSync(…, {recursive})`, `rmtree`). */
  deletions: WordValues[];
}

/** Calls that hand text to a shell or start a program. */
const execCall =
  /\b(?:os\.system|os\.popen|os\.exec[lv]p?e?|os\.spawn[lv]p?e?|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|pty\.spawn|commands\.getoutput|system|exec|execSync|execFile|execFileSync|spawn|spawnSync|shell_exec|passthru|proc_open|popen|IO\.popen|Open3\.\w+|Kernel\.system|Process\.spawn|do shell script)\s*(\(|\s)/g;

/** Calls that delete a folder tree. */
const deleteCall =
  /\b(?:shutil\.rmtree|rmtree|remove_tree|rm_rf|rm_r|remove_dir|removedirs|rmSync|rmdirSync|rimraf|rimrafSync|fs\.rm|fs\.promises\.rm|fsp\.rm|rm|rmdir|FileUtils\.rm_rf|FileUtils\.remove_entry|Deno\.remove)\s*\(/g;

/** Idioms that name the home folder or the root inside code. */
const homeIdioms =
  /os\.path\.expanduser\(\s*(['"])~\/?\1\s*\)|Path\.home\(\)|pathlib\.Path\.home\(\)|os\.environ\[\s*(['"])HOME\2\s*\]|os\.environ\.get\(\s*(['"])HOME\3\s*\)|os\.getenv\(\s*(['"])HOME\4\s*\)|(?:require\(\s*['"](?:node:)?os['"]\s*\)|\bos)\.homedir\(\)|process\.env\.HOME|process\.env\[\s*(['"])HOME\5\s*\]|\$ENV\{\s*['"]?HOME['"]?\s*\}|ENV\[\s*(['"])HOME\6\s*\]|Dir\.home|getenv\(\s*(['"])HOME\7\s*\)|ENVIRON\[\s*"HOME"\s*\]/g;

/**
 * Reads inline code for the two things the hard floor cares about: text handed to a
 * shell (analysed as shell again) and recursive deletes (judged like `rm -r`). The
 * reading is lexical: string literals inside the call's parentheses. A call whose
 * argument is not a literal is reported as unknown, never guessed as harmless.
 */
export function codeEffects(code: string, home: string | undefined): CodeEffects {
  const effects: CodeEffects = { shellTexts: [], runsUnknown: false, deletions: [] };
  const withHome = code.replace(homeIdioms, () => JSON.stringify(home ?? '~'));
  for (const match of withHome.matchAll(execCall)) {
    const args = callArguments(withHome, (match.index ?? 0) + match[0].length - (match[1] === '(' ? 1 : 0));
    const literals = stringLiterals(args);
    if (literals.length === 0) {
      effects.runsUnknown = true;
      continue;
    }
    effects.shellTexts.push(...literals, literals.join(' '));
    if (hasNonLiteral(args)) effects.runsUnknown = true;
  }
  // Backticks and qx{} in perl/ruby/php, `"cmd" | getline` and `print | "cmd"` in awk.
  for (const match of withHome.matchAll(/`([^`]*)`|\bqx\s*([{(/|])([^})/|]*)[})/|]|%x[{(]([^})]*)[})]/g))
    effects.shellTexts.push(match[1] ?? match[3] ?? match[4] ?? '');
  for (const match of withHome.matchAll(/"([^"]*)"\s*\|\s*getline|\|\s*"([^"]*)"/g))
    effects.shellTexts.push(match[1] ?? match[2] ?? '');
  if (/\|\s*"(?:\/bin\/)?(sh|bash|dash|zsh)"/.test(withHome))
    // awk's `print "…" | "sh"` feeds every printed literal to the shell.
    effects.shellTexts.push(...stringLiterals(withHome));
  for (const match of withHome.matchAll(deleteCall)) {
    const args = callArguments(withHome, (match.index ?? 0) + match[0].length - 1);
    const first = firstArgument(args);
    const literal = /^\s*(['"])((?:\\.|(?!\1).)*)\1\s*$/s.exec(first);
    if (literal)
      effects.deletions.push({ raw: first.trim(), values: [unescapeLiteral(literal[2] ?? '')], unknown: false });
    else if (first.trim() !== '') effects.deletions.push({ raw: first.trim(), values: [], unknown: true });
  }
  return effects;
}

/** The text between the parenthesis at `open` and its match (or to the end of the statement). */
function callArguments(code: string, open: number): string {
  if (code[open] !== '(') {
    const end = code.slice(open).search(/[;\n}]/);
    return end < 0 ? code.slice(open) : code.slice(open, open + end);
  }
  let depth = 0;
  let quote: string | undefined;
  for (let index = open; index < code.length; index++) {
    const char = code[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '(') depth++;
    else if (char === ')') {
      depth--;
      if (depth === 0) return code.slice(open + 1, index);
    }
  }
  return code.slice(open + 1);
}

function firstArgument(args: string): string {
  let depth = 0;
  let quote: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const char = args[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') depth--;
    else if (char === ',' && depth === 0) return args.slice(0, index);
  }
  return args;
}

/** Every string literal of the code (for paths it opens: `open("/home/me/.ssh/id_rsa")`). */
export function codeLiterals(code: string, home: string | undefined): string[] {
  const withHome = code.replace(homeIdioms, () => JSON.stringify(home ?? '~'));
  let text = withHome;
  // Paths built from literals: `home + "/.ssh/id_rsa"`, `Path.home() / ".ssh"`, `path.join("~", ".ssh")`.
  const literal = `(['"])((?:\\\\.|(?!\\1).)*)\\1`;
  const joined = new RegExp(`${literal}\\s*([+/,])\\s*${literal.replace(/\\1/g, '\\4')}`, 'g');
  for (let round = 0; round < 8; round++) {
    const next = text.replace(joined, (_match, _q, left: string, operator: string, _q2, right: string) =>
      JSON.stringify(operator === '+' ? left + right : `${left}/${right}`),
    );
    if (next === text) break;
    text = next;
  }
  return [...new Set([...stringLiterals(withHome), ...stringLiterals(text)])];
}

function stringLiterals(text: string): string[] {
  return [...text.matchAll(/(['"])((?:\\.|(?!\1).)*)\1/gs)].map((match) => unescapeLiteral(match[2] ?? ''));
}

/** Anything in the call's arguments besides literals, commas, brackets and keyword flags. */
function hasNonLiteral(args: string): boolean {
  const rest = args
    .replace(/(['"])((?:\\.|(?!\1).)*)\1/gs, '')
    .replace(/\b(shell|check|text|capture_output|stdout|stderr|cwd|env|encoding)\s*=\s*[\w.]+/g, '')
    .replace(/[\s,[\](){}+]/g, '');
  return rest.length > 0;
}

function unescapeLiteral(text: string): string {
  return text.replace(/\\(.)/g, (_match, char: string) => ({ n: '\n', t: '\t' })[char] ?? char);
}
