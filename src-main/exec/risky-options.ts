import type { ShellWord } from './shell-words.js';

/**
 * Options of everyday tools that make them run other programs or write files.
 * An allowlisted `git` or `sed` is trusted to read; these uses need an explicit
 * argPattern entry. Returns why, or undefined when the invocation is plain.
 */
export function riskyOptionReason(base: string, args: ShellWord[]): string | undefined {
  const texts = args.map((arg) => arg.text);
  const has = (test: (text: string) => boolean) => texts.find(test);
  switch (base) {
    case 'git': {
      const option = has(
        (t) =>
          t === '-c' ||
          /^-c.+=/.test(t) ||
          /^--(config-env|output|upload-pack|receive-pack|exec|ext-diff|template|run)(=|$)/.test(t) ||
          t === '--textconv',
      );
      if (option) return `git ${option} can run a program or write a file`;
      const sub = firstPositional(texts, ['-C', '--git-dir', '--work-tree', '--namespace']);
      if (sub === 'config' && !texts.some((t) => /^(--get|--list|-l|--get-all|--get-regexp|--show-origin)/.test(t)))
        return 'git config can set an alias or core.pager that runs programs';
      if (sub === 'filter-branch' || sub === 'bisect' || sub === 'rebase')
        return texts.some((t) => t === '--exec' || t === '-x' || t.startsWith('--exec=') || t === 'run')
          ? `git ${sub} runs a command`
          : undefined;
      return undefined;
    }
    case 'sed':
    case 'gsed': {
      const inPlace = has((t) => /^-[a-zA-Z]*i/.test(t) || t.startsWith('--in-place'));
      if (inPlace) return `sed ${inPlace} edits files in place`;
      const scripts = sedScripts(texts);
      if (scripts.some((script) => sedRunsOrWrites(script)))
        return 'the sed script runs a command (e) or writes a file (w)';
      return undefined;
    }
    case 'tar':
    case 'gtar': {
      const option = has((t) =>
        /^--(checkpoint-action|to-command|use-compress-program|info-script|new-volume-script|rsh-command)(=|$)/.test(t),
      );
      if (option) return `tar ${option} runs a program`;
      if (texts.some((t) => t === '-I' || t === '-F' || /^-[a-zA-Z]*[IF]$/.test(t))) return 'tar -I/-F runs a program';
      return undefined;
    }
    case 'find': {
      const option = has((t) => /^-(delete|fprint|fprint0|fprintf|fls)$/.test(t));
      return option ? `find ${option} deletes or writes files` : undefined;
    }
    case 'sort': {
      const option = has((t) => t === '-o' || t.startsWith('--output') || /^-[a-zA-Z]*o/.test(t));
      return option ? 'sort -o writes a file' : undefined;
    }
    case 'curl': {
      const option = has(
        (t) => /^(-o|-O|--output|--remote-name|-K|--config)(=|$)/.test(t) || /^-[a-zA-Z]*[oO]$/.test(t),
      );
      return option ? `curl ${option} writes a file or reads a config` : undefined;
    }
    case 'wget': {
      const option = has((t) => /^(-O|--output-document|-P|--directory-prefix|-o|--output-file)(=|$)/.test(t));
      return option ? `wget ${option} writes a file` : undefined;
    }
    case 'rsync': {
      const option = has((t) => /^(-e|--rsh|--rsync-path)(=|$)/.test(t));
      return option ? `rsync ${option} runs a program` : undefined;
    }
    case 'ssh':
    case 'scp': {
      const option = texts.find((t, i) => /ProxyCommand|LocalCommand|PermitLocalCommand/i.test(t) && i >= 0);
      return option ? `${base} -o ${option} runs a local program` : undefined;
    }
    case 'less':
    case 'more':
    case 'man': {
      const option = has((t) => /^(-P|--pager|-H|--html)(=|$)/.test(t));
      return option ? `${base} ${option} runs a program` : undefined;
    }
    default:
      return undefined;
  }
}

function firstPositional(texts: string[], optionsWithValue: string[]): string | undefined {
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index] ?? '';
    if (optionsWithValue.includes(text)) {
      index++;
      continue;
    }
    if (!text.startsWith('-')) return text;
  }
  return undefined;
}

/** sed's script is `-e X`/`--expression=X` or, without those, the first positional. */
function sedScripts(texts: string[]): string[] {
  const scripts: string[] = [];
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index] ?? '';
    if (text === '-e' || text === '--expression') scripts.push(texts[++index] ?? '');
    else if (text.startsWith('--expression=')) scripts.push(text.slice(13));
    else if (text === '-f' || text === '--file') return ['w'];
  }
  if (scripts.length === 0) {
    const first = texts.find((text) => !text.startsWith('-'));
    if (first !== undefined) scripts.push(first);
  }
  return scripts;
}

function sedRunsOrWrites(script: string): boolean {
  // Commands: `e`, `w file`, `W file` (optionally after an address), and the `e`/`w` flags of s///.
  if (/(^|[;\n{}])\s*([0-9$,~!/\\^.*+?\w[\]]*\s*)?[ewW](\s|$)/.test(script)) return true;
  const substitution = /s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([a-zA-Z0-9]*)/gs;
  for (const match of script.matchAll(substitution)) if (/[ew]/.test(match[2] ?? '')) return true;
  return false;
}
