import type { BootstrapResult } from './bootstrap-loader.js';

export type TruncationWarningMode = 'off' | 'once' | 'always';

/**
 * Tells the model a workspace file was cut so it reads the full file with a tool instead of
 * trusting a partial one. Inject it with the turn (e.g. as the user message's hidden prefix),
 * not in the system prompt, so a "once" warning does not break the prompt cache next turn.
 */
export interface TruncationWarner {
  warningFor(sessionKey: string, result: BootstrapResult): string | undefined;
}

export function formatTruncationWarning(result: BootstrapResult): string | undefined {
  const cut = result.files.filter((f) => f.truncated);
  if (cut.length === 0) return undefined;
  const lines = cut.map((f) =>
    f.omitted
      ? `- ${f.name}: ${f.rawChars} chars, left out (total budget spent)`
      : `- ${f.name}: ${f.rawChars} chars, ${f.injectedChars} injected`,
  );
  return `Some workspace files were cut to fit the prompt budget; read the full file with a tool before relying on what is missing:\n${lines.join('\n')}`;
}

export function createTruncationWarner(mode: TruncationWarningMode): TruncationWarner {
  if (mode !== 'off' && mode !== 'once' && mode !== 'always') {
    throw new RangeError(`truncation warning mode must be off, once or always, got "${String(mode)}"`);
  }
  // "once" is per session and per signature: a file cut differently (it grew) warns again.
  const seen = new Set<string>();
  return {
    warningFor(sessionKey, result) {
      if (mode === 'off' || result.truncationSignature === '') return undefined;
      if (mode === 'once') {
        const key = `${sessionKey}\u0000${result.truncationSignature}`;
        if (seen.has(key)) return undefined;
        seen.add(key);
      }
      return formatTruncationWarning(result);
    },
  };
}
