import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANVAS_EMPTY_MESSAGE } from '../protocol/methods/canvas.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ capabilities: false });
});
afterAll(async () => {
  await host.close();
});

const canvas = (path: string) => fetch(`http://127.0.0.1:${host.port}/__hearth__/canvas/${path}`);

describe('an empty canvas', () => {
  it('answers a readable page, not JSON, still sandboxed, that tells the app it is the empty page', async () => {
    const answer = await canvas('');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    const body = await answer.text();
    expect(body).toContain('Nothing on the canvas yet');
    expect(body).not.toContain('"error"');
    expect(body).toContain(CANVAS_EMPTY_MESSAGE);
  });

  it('follows the theme the app asks for, else the OS', async () => {
    expect(await (await canvas('?theme=dark')).text()).toContain('color-scheme:dark');
    expect(await (await canvas('?theme=light')).text()).toContain('color-scheme:light"');
    expect(await (await canvas('?theme=<x>')).text()).toContain('color-scheme:light dark');
  });

  it('answers the same page for a file the agent has not written', async () => {
    const answer = await canvas('chart.html');
    expect(answer.status).toBe(404);
    expect(await answer.text()).toContain('Nothing on the canvas yet');
  });
});
