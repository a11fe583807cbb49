import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { compress, preferredEncoding } from './compressed-assets.js';

let host: TestHost;
let temp: Awaited<ReturnType<typeof createTempHome>>;
let uiDir: string;
const bundle = `${'export const views = ["chat", "memory", "dreams"];\n'.repeat(400)}console.log(views);\n`;

beforeAll(async () => {
  temp = await createTempHome('hearth-compressed-');
  uiDir = join(temp.home, 'ui');
  await mkdir(join(uiDir, 'assets'), { recursive: true });
  await writeFile(join(uiDir, 'index.html'), '<!doctype html><title>ui</title>');
  // One asset with the build's siblings, one without (a UI folder nobody precompressed).
  await writeFile(join(uiDir, 'assets', 'app-abc123.js'), bundle);
  await writeFile(join(uiDir, 'assets', 'app-abc123.js.br'), await compress(Buffer.from(bundle), 'br', 'best'));
  await writeFile(join(uiDir, 'assets', 'app-abc123.js.gz'), await compress(Buffer.from(bundle), 'gzip', 'best'));
  await writeFile(join(uiDir, 'assets', 'plain-def456.js'), bundle);
  await writeFile(join(uiDir, 'assets', 'tiny.js'), 'console.log(1)');
  host = await startTestHost({ capabilities: false, controlUiDir: uiDir });
});
afterAll(async () => {
  await host.close();
  await temp.cleanup();
});

function get(path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const headers: Record<string, string> = { host: `127.0.0.1:${host.port}` };
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      const req = httpRequest({ host: '127.0.0.1', port: host.port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('compressed Control UI assets', () => {
  it('sends brotli to a browser that takes it, from the build sibling, with its length and Vary', async () => {
    const answer = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('accept-encoding');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(bundle.length / 10);
    expect(brotliDecompressSync(answer.body).toString()).toBe(bundle);
  });

  it('sends gzip to a client that takes only gzip, and the plain file to one that takes neither', async () => {
    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(bundle);
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/assets/app-abc123.js', accept);
      expect(plain.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      expect(plain.body.toString()).toBe(bundle);
    }
  });

  it('compresses a file without siblings on the fly, the same bytes every time', async () => {
    const first = await get('/assets/plain-def456.js', 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.body).toString()).toBe(bundle);
    const again = await get('/assets/plain-def456.js', 'br');
    expect(again.body.equals(first.body)).toBe(true);
  });

  it('never sends a sibling older than its file (a rebuilt file with a stale .br)', async () => {
    const changed = bundle.replace('dreams', 'canvas');
    await writeFile(join(uiDir, 'assets', 'app-abc123.js'), changed);
    const past = new Date(Date.now() - 3_600_000);
    await utimes(join(uiDir, 'assets', 'app-abc123.js.br'), past, past);
    const answer = await get('/assets/app-abc123.js', 'br');
    expect(brotliDecompressSync(answer.body).toString()).toBe(changed);
  });

  it('leaves files too small to gain as they are, and never serves a sibling as a file of its own type', async () => {
    const tiny = await get('/assets/tiny.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('console.log(1)');
    const sibling = await get('/assets/app-abc123.js.br', 'br');
    expect(sibling.headers['content-encoding']).toBeUndefined();
    expect(sibling.headers['content-type']).toBe('application/octet-stream');
  });

  it('reads Accept-Encoding as its grammar says', () => {
    const pick = (value: string) => preferredEncoding({ 'accept-encoding': value });
    expect(pick('gzip, br')).toBe('br');
    expect(pick('br;q=0.5, gzip')).toBe('gzip');
    expect(pick('*')).toBe('br');
    expect(pick('*, br;q=0')).toBe('gzip');
    expect(pick('deflate')).toBeUndefined();
    expect(preferredEncoding({})).toBeUndefined();
  });
});
