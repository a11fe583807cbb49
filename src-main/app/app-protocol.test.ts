import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from './app-protocol.js';

let dir: string;
let handle: (request: Request) => Promise<Response>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-app-protocol-'));
  await mkdir(join(dir, 'renderer', 'assets'), { recursive: true });
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Hearth</title>');
  await writeFile(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'secret.txt'), 'outside');
  handle = createAppProtocolHandler({
    rendererDir: join(dir, 'renderer'),
    contentSecurityPolicy: "default-src 'self'",
  });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('app:// protocol', () => {
  it('serves the built renderer with its content type and the CSP', async () => {
    const page = await handle(new Request('app://hearth/'));
    expect(await page.text()).toContain('<title>Hearth</title>');
    expect(page.headers.get('content-security-policy')).toBe("default-src 'self'");
    const script = await handle(new Request('app://hearth/assets/app.js'));
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toBe('console.log(1)');
  });

  it('answers client-side routes with index.html but missing assets with 404', async () => {
    expect(await (await handle(new Request('app://hearth/sessions/main'))).text()).toContain('<title>');
    expect((await handle(new Request('app://hearth/assets/missing.js'))).status).toBe(404);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const url of [
      'app://hearth/%2e%2e/secret.txt',
      'app://hearth/..%2fsecret.txt',
      'app://hearth/a/..%2f..%2fsecret.txt',
    ]) {
      const response = await handle(new Request(url));
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(await response.text(), url).not.toBe('outside');
    }
    expect((await handle(new Request('app://hearth/..%2fsecret.txt'))).status).toBe(403);
  });

  it('answers only for its own host', async () => {
    expect((await handle(new Request('app://other/index.html'))).status).toBe(404);
  });
});
