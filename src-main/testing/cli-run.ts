import { systemClock } from '../base/clock.js';
import { createCliContext } from '../cli/cli-context.js';
import { runCli } from '../cli/run-cli.js';

/** Runs `hearth <args>` through the CLI's own code path against a home and port, capturing what it prints. */
export async function runCliCaptured(
  args: string[],
  env: Record<string, string>,
  stdin = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const context = createCliContext({
    env,
    clock: systemClock,
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    readStdin: async () => stdin,
  });
  const code = await runCli(args, context);
  return { code, ...out };
}
