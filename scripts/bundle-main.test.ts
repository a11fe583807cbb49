import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRaw } from '../src-main/testing/raw-gateway-socket.js';
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

  it('builds every bundled plugin into the bundle, sharing its chunks (one zod, one AI SDK)', () => {
    const ids = readdirSync(join(root, 'extensions')).filter((id) =>
      existsSync(join(root, 'extensions', id, 'hearth.plugin.json')),
    );
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const manifest = readFileSync(join(root, 'extensions', id, 'hearth.plugin.json'), 'utf8');
      expect(readFileSync(join(outdir, 'extensions', id, 'hearth.plugin.json'), 'utf8'), id).toBe(manifest);
      const main = (JSON.parse(manifest) as { main: string }).main.replace(/\.ts$/, '.js');
      const code = readFileSync(join(outdir, 'extensions', id, main), 'utf8');
      // What the entry imports: the bundle's own chunks, Node's built-ins and the packages kept
      // outside every bundle (LanceDB); never a second zod, ai or the tsc build's plugin SDK.
      const imports = [
        ...code.matchAll(/^(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm),
      ].map((match) => match[1] ?? match[2]);
      expect(imports.length, id).toBeGreaterThan(0);
      for (const specifier of imports) {
        expect(specifier, `${id} imports ${specifier}`).toMatch(
          /^(\.\.\/\.\.\/chunk-[\w-]+\.js|node:[\w/]+|@lancedb\/lancedb)$/,
        );
      }
    }
  });

  it("keeps only zod's English messages (every entry module that re-exports z.locales)", () => {
    const code = readdirSync(outdir)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(outdir, name), 'utf8'));
    // A sentence of zod's German and French locales: never in the bundle; the English one is.
    for (const foreign of ['Eingabe: erwartet', 'Option invalide : une valeur parmi']) {
      expect(
        code.some((text) => text.includes(foreign)),
        foreign,
      ).toBe(false);
    }
    expect(code.some((text) => text.includes('Invalid input: expected'))).toBe(true);
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
        // The channels come from the plugins the bundle carries (extensions/ beside its chunks).
        await new Promise<void>((resolve, reject) => {
          const onData = () => {
            if (!/\n(Ready|Some capabilities)/.test(out)) return;
            child!.stdout!.off('data', onData);
            if (/\nSome capabilities/.test(out)) reject(new Error(out));
            else resolve();
          };
          child!.stdout!.on('data', onData);
          onData();
        });
        const token = readFileSync(join(temp.home, 'identity', 'gateway-token'), 'utf8').trim();
        const { socket } = await connectRaw(url.replace('http', 'ws'), { token, scopes: ['operator.admin'] });
        try {
          const answer = await socket.request('channels.list', {});
          expect(answer.ok, JSON.stringify(answer)).toBe(true);
          const ids = (answer.payload as { channels: { id: string }[] }).channels.map((channel) => channel.id);
          expect(ids).toEqual(expect.arrayContaining(['telegram', 'discord', 'slack', 'webhook']));
        } finally {
          socket.close();
        }
        // The log is written through the bundled pino (its file destination; no worker).
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
        const logLines = readFileSync(join(temp.home, 'state', 'logs', 'gateway.log'), 'utf8')
          .trim()
          .split('\n');
        expect(JSON.parse(logLines[0]!)).toMatchObject({ level: expect.any(Number), msg: expect.any(String) });
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
