// Test support (never shipped): what the fake agent CLIs share. Each fake takes its own leading
// options before the real CLI's arguments — `--record <file>` (one JSON line per run: argv, pid,
// prompt) and `--hold-port <port>` (the "hang" scenario starts a grandchild that connects there,
// so a test sees the whole tree die by that socket closing) — then reads the prompt from stdin.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

export function parseFakeOptions(argv) {
  const options = { record: undefined, holdPort: undefined };
  const rest = [...argv];
  while (rest[0] === '--record' || rest[0] === '--hold-port') {
    const flag = rest.shift();
    const value = rest.shift();
    if (flag === '--record') options.record = value;
    else options.holdPort = Number(value);
  }
  return { options, args: rest };
}

export async function readStdin() {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

export function record(options, entry) {
  if (options.record) appendFileSync(options.record, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
}

/** Writes JSONL events; resolves once they are flushed (before an exit). */
export function emit(...events) {
  return new Promise((resolve) => process.stdout.write(events.map((e) => `${JSON.stringify(e)}\n`).join(''), resolve));
}

export function writeRaw(text) {
  return new Promise((resolve) => process.stdout.write(text, resolve));
}

/** A child that lives until it is killed and holds a socket open to the test meanwhile. */
export function startGrandchild(holdPort) {
  const script = `const s=require('node:net').connect(${holdPort},'127.0.0.1',()=>s.write(String(process.pid)+'\\n'));s.on('error',()=>{});setInterval(()=>{},1e9);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  return child.pid;
}

export function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}
