import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// "Pause agent" (the desktop tray) on the composed host: agent.pause makes every new turn refuse
// with a message that says Hearth is paused and how to resume; agent.resume lets them run again.

const patient = 30_000;
let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
let socket: RawGatewaySocket;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome('hearth-pause-');
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
      agents: { defaults: { model: 'openai/gpt-4o' } },
      memory: { recall: { enabled: false } },
    }),
  );
  host = await startTestHost({ home: temp.home, env: { ...process.env, HEARTH_SECRET_STORE: 'file' } });
  ({ socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] }));
  const added = await socket.request(
    'auth.profiles.set',
    { id: 'openai-pause', provider: 'openai', type: 'api_key', secret: 'sk-pause-test-PPPP' },
    patient,
  );
  expect(added).toMatchObject({ ok: true });
}, 120_000);
afterAll(async () => {
  socket?.close();
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

describe('agent pause', () => {
  it('refuses new turns while paused, saying so, and runs them again after resume', async () => {
    expect(await socket.request('agent.pause.status', {}, patient)).toMatchObject({
      ok: true,
      payload: { paused: false },
    });
    const announced = socket.next((frame) => (frame as { event?: string }).event === 'agent.pause.changed', patient);
    const paused = await socket.request('agent.pause', {}, patient);
    // Every connected surface hears it (the tray, other windows, phones).
    expect(await announced).toMatchObject({ payload: { paused: true } });
    expect(paused).toMatchObject({ ok: true, payload: { paused: true } });
    expect(typeof (paused as { payload: { since?: number } }).payload.since).toBe('number');

    const refused = await socket.request(
      'chat.send',
      { sessionKey: 'agent:main:main', message: 'are you there?', idempotencyKey: 'paused-1' },
      patient,
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toMatch(/^Hearth is paused: new messages, heartbeats and cron runs are not run until you resume/);
    expect(message).toContain('This message was not started.');
    const viaAgent = await socket.request('agent', { message: 'hello', idempotencyKey: 'paused-2' }, patient);
    expect(viaAgent).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(llm.requests).toHaveLength(0);

    expect(await socket.request('agent.resume', {}, patient)).toMatchObject({ ok: true, payload: { paused: false } });
    llm.script({ type: 'text', text: 'Back again.' });
    const sent = await socket.request(
      'chat.send',
      { sessionKey: 'agent:main:main', message: 'are you there?', idempotencyKey: 'resumed-1' },
      patient,
    );
    expect(sent).toMatchObject({ ok: true, payload: { status: 'started' } });
    const final = await socket.next(
      (frame) =>
        (frame as { event?: string; payload?: { state?: string; runId?: string } }).event === 'chat' &&
        (frame as { payload: { state: string } }).payload.state === 'final',
      patient,
    );
    expect(JSON.stringify(final)).toContain('Back again.');
  }, 120_000);
});
