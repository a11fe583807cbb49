/**
 * The environment a command gets. Secrets (API keys, tokens) live in the parent's
 * environment, so children start from an allowlist, not from a copy: only what
 * shells and tools need to behave normally, plus what the agent config passes.
 */
const defaultNames = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'TMPDIR',
  'NO_COLOR',
  'PWD',
]);

/** `passthrough` names may end in `*` (`NPM_CONFIG_*`). */
export function buildChildEnv(
  source: Record<string, string | undefined>,
  passthrough: readonly string[] = [],
  overrides: Record<string, string> = {},
): Record<string, string> {
  const prefixes = passthrough.filter((name) => name.endsWith('*')).map((name) => name.slice(0, -1));
  const exact = new Set(passthrough.filter((name) => !name.endsWith('*')));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (defaultNames.has(name) || name.startsWith('LC_') || exact.has(name) || prefixes.some((p) => name.startsWith(p)))
      env[name] = value;
  }
  return { ...env, ...overrides };
}
