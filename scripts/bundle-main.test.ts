import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome } from '../src-main/testing/temp-home.js';

// The bundled CLI (scripts/bundle-main.mjs) built into a folder of this test's own, inside the
// repo (the bundle finds its app root above itself), then run as a user would run it.
const root = fileURLToPath(new URL('..', import.meta.url));
const SLOW = 180_000;
let outdir: string;

beforeAll(async () => {
  const cache = join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  outdir = await mkdtemp(join(cache, 'hearth-bundle-test-'));
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'bundle-main.mjs'), '--outdir', outdir], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`bundle-main failed: ${built.stderr}${built.stdout}`);
}, SLOW);
afterAll(async () => {
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

describe('the bundled CLI', () => {
  it('puts each worker entry beside the chunks that start it', () => {
    for (const name of ['hearth.js', 'cedict-worker.js', 'onnx-embedder-worker.js']) {
      expect(existsSync(join(outdir, name)), name).toBe(true);
    }
  });

  it(
    'answers hearth --help',
    () => {
      const help = spawnSync(process.execPath, [join(outdir, 'hearth.js'), '--help'], { encoding: 'utf8' });
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('Usage: hearth');
      expect(help.stdout).toContain('gateway');
    },
    SLOW,
  );

  it(
    'runs hearth gateway run, which answers HTTP',
    async () => {
      const temp = await createTempHome();
      let child: ChildProcess | undefined;
      try {
        child = spawn(process.execPath, [join(outdir, 'hearth.js'), 'gateway', 'run', '--port', '0'], {
          env: { ...process.env, HEARTH_HOME: temp.home },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        const url = await new Promise<string>((resolve, reject) => {
          child!.stdout!.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (match) resolve(match[1]!);
          });
          child!.once('exit', (code) => reject(new Error(`gateway exited (${code}): ${out}`)));
        });
        const health = await fetch(`${url}/health`);
        expect(health.status).toBe(200);
        // The Control UI page comes from the app root the bundle found above itself.
        const page = await fetch(`${url}/`);
        expect(page.status).toBe(200);
      } finally {
        if (child && child.exitCode === null) {
          const exited = new Promise((resolve) => child!.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await temp.cleanup();
      }
    },
    SLOW,
  );
});
