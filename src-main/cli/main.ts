import { systemClock } from '../base/clock.js';
import { createCliContext } from './cli-context.js';
import { runCli } from './run-cli.js';

// The `hearth` executable: the only place the CLI touches the real process.
const context = createCliContext({
  env: process.env,
  clock: systemClock,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
});

const code = await runCli(process.argv.slice(2), context);
process.exitCode = code;
