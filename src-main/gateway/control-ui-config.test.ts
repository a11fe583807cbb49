import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlUiRoot } from '../host/start-hearth.js';
import { createTempHome } from '../testing/temp-home.js';
import { createHttpHandler } from './http-routes.js';

let temp: { home: string; cleanup(): Promise<void> };
let server: Server;
let base: string;

beforeAll(async () => {
  temp = await createTempHome('hearth-control-ui-config-');
  const uiDir = join(temp.home, 'other-ui');
  await mkdir(uiDir, { recursive: true });
  await writeFile(join(uiDir, 'index.html'), '<!doctype html><title>Another Control UI</title>');
  const handler = createHttpHandler({ controlUiDir: uiDir, canvasDir: () => temp.home, version: '9.9.9' });
  server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await temp.cleanup();
});

describe("OpenClaw's Control UI runtime config", () => {
  it.each(['/control-ui-config.json', '/__openclaw__/control-ui-config.json'])('is served at %s', async (path) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ basePath: '', assistantName: 'Hearth', serverVersion: '9.9.9' });
  });

  it('serves the configured Control UI folder, with the SPA fallback to its index.html', async () => {
    const page = await fetch(`${base}/sessions`);
    expect(await page.text()).toContain('Another Control UI');
  });
});

describe('gateway.controlUi.root', () => {
  it('resolves relative to HEARTH_HOME and refuses a folder without index.html', async () => {
    await expect(controlUiRoot('other-ui', temp.home)).resolves.toBe(join(temp.home, 'other-ui'));
    await expect(controlUiRoot('missing-ui', temp.home)).rejects.toThrow(
      /gateway\.controlUi\.root: .*missing-ui has no index\.html/,
    );
  });
});
