import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';

// kill -9 of the gateway in the middle of a turn: after a restart the session is still
// readable, the transcript is valid JSON lines, and the next turn works.

const bin = join(process.cwd(), 'bin', 'hearth.js');
// A busy 2-core machine can take seconds to answer while a gateway starts: be patient per request.
const patient = 30_000;
let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };

function startGateway(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [bin, 'gateway', 'run', '--port', '0'], {
    env: { ...process.env, HEARTH_HOME: temp.home, HEARTH_FROM_SOURCE: '1', HEARTH_SECRET_STORE: 'file' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let port = 0;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      port ||= Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1] ?? 0);
      if (port && out.includes('Ready:')) resolve({ child, port });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}) before it was ready:\n${out}`)));
  });
}

beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome();
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
      agents: { defaults: { model: 'openai/gpt-4o' } },
    }),
  );
});
afterAll(async () => {
  await llm?.close();
  await temp?.cleanup();
});

describe('crash mid-turn', () => {
  it('leaves a readable session and a working gateway after kill -9', async () => {
    const first = await startGateway();
    const token = (await readFile(join(temp.home, 'identity', 'gateway-token'), 'utf8')).trim();
    const url = `ws://127.0.0.1:${first.port}`;
    const { socket } = await connectRaw(url, { token, scopes: ['operator.admin'] });
    expect(
      await socket.request(
        'auth.profiles.set',
        {
          id: 'main-key',
          provider: 'openai',
          type: 'api_key',
          secret: 'sk-crash-test',
        },
        patient,
      ),
    ).toMatchObject({ ok: true });
    // The scripted reply says when the provider has the request: the turn is then in flight.
    let turnInFlight!: () => void;
    const providerHasRequest = new Promise<void>((resolve) => {
      turnInFlight = resolve;
    });
    llm.script([
      () => {
        turnInFlight();
        return { type: 'text', text: 'This reply never finishes.', firstTokenDelayMs: 30_000 };
      },
    ]);
    expect(
      await socket.request(
        'chat.send',
        { sessionKey: 'main', message: 'first question', idempotencyKey: 'k-1' },
        patient,
      ),
    ).toMatchObject({ ok: true });
    await providerHasRequest;
    expect(llm.requests.some((r) => r.lastUserText === 'first question')).toBe(true);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startGateway();
    const again = await connectRaw(`ws://127.0.0.1:${second.port}`, { token, scopes: ['operator.admin'] });
    const history = await again.socket.request('chat.history', { sessionKey: 'main' }, patient);
    expect(history).toMatchObject({ ok: true });
    const sessionsDir = join(temp.home, 'agents', 'main', 'sessions');
    for (const name of (await readdir(sessionsDir)).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of (await readFile(join(sessionsDir, name), 'utf8')).split('\n').filter(Boolean))
        expect(() => JSON.parse(line)).not.toThrow();
    }
    llm.reset();
    llm.script([{ type: 'text', text: 'Back after the crash.' }]);
    await again.socket.request(
      'chat.send',
      { sessionKey: 'main', message: 'are you there?', idempotencyKey: 'k-2' },
      patient,
    );
    const final = await again.socket.next(
      (f) => f.event === 'chat' && (f.payload as { state: string }).state === 'final',
      patient,
    );
    expect(JSON.stringify(final.payload)).toContain('Back after the crash.');
    again.socket.close();
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }, 120_000);
});
