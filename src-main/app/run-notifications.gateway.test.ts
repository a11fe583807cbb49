import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../base/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import type { Notifier, NotifyOptions } from './notifications.js';
import { notifyFinishedRuns } from './run-notifications.js';
import { createShellClient } from './shell-client.js';

// The shell's notifications on the composed host: its own in-process client hears a run end,
// and a notification is shown only while no Hearth window is focused; clicking it opens the chat.
// The tray's Pause agent goes through the same client.

const patient = 30_000;
let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome('hearth-shell-notify-');
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
      agents: { defaults: { model: 'openai/gpt-4o' } },
      memory: { recall: { enabled: false } },
    }),
  );
  host = await startTestHost({ home: temp.home, env: { ...process.env, HEARTH_SECRET_STORE: 'file' } });
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  try {
    const added = await socket.request(
      'auth.profiles.set',
      { id: 'openai-notify', provider: 'openai', type: 'api_key', secret: 'sk-notify-test-NNNN' },
      patient,
    );
    expect(added).toMatchObject({ ok: true });
  } finally {
    socket.close();
  }
}, 120_000);
afterAll(async () => {
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

/** Electron's Notification stands in as a list: what would have been shown, and a way to click it. */
class RecordingNotifier implements Notifier {
  readonly shown: NotifyOptions[] = [];
  private waiter?: () => void;
  notify(options: NotifyOptions) {
    this.shown.push(options);
    this.waiter?.();
    return { close() {} };
  }
  next(): Promise<void> {
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

describe('shell notifications and pause', () => {
  it('notifies when a run ends while the window is not focused, and the tray can pause the agent', async () => {
    const client = createShellClient(host.gateway, { version: 'test', clock: systemClock });
    try {
      await client.waitForConnected();
      const notifier = new RecordingNotifier();
      let focused = true;
      const opened: string[] = [];
      const watching = notifyFinishedRuns({
        events: client,
        notifier,
        windowFocused: () => focused,
        openSession: (key) => void opened.push(key),
        clock: systemClock,
      });

      // Looking at the window: the answer is on screen, no notification.
      llm.script({ type: 'text', text: 'First answer, seen in the window.' });
      // The run id is the idempotency key: listen before sending, so the end cannot be missed.
      const firstEnded = new Promise<void>((resolve) => {
        const listening = client.on('chat', (event) => {
          if (event.runId === 'notify-1' && event.state === 'final') {
            listening.dispose();
            resolve();
          }
        });
      });
      await client.request('chat.send', { sessionKey: 'agent:main:main', message: 'one', idempotencyKey: 'notify-1' });
      await firstEnded;

      // Away: the next answer is announced, and clicking it opens that chat.
      focused = false;
      const announced = notifier.next();
      llm.script({ type: 'text', text: 'Second answer, while you were away.' });
      await client.request('chat.send', { sessionKey: 'agent:main:main', message: 'two', idempotencyKey: 'notify-2' });
      await announced;
      expect(notifier.shown).toEqual([
        { title: 'Hearth answered', body: 'Second answer, while you were away.', onClick: expect.any(Function) },
      ]);
      notifier.shown[0]!.onClick!();
      expect(opened).toEqual(['agent:main:main']);
      watching.dispose();

      // Pause agent, as the tray does it: a new message is refused saying so.
      expect(await client.request('agent.pause', {})).toMatchObject({ paused: true });
      await expect(
        client.request('chat.send', { sessionKey: 'agent:main:main', message: 'three', idempotencyKey: 'notify-3' }),
      ).rejects.toThrow(/Hearth is paused/);
      expect(await client.request('agent.resume', {})).toMatchObject({ paused: false });
    } finally {
      client.dispose();
    }
  }, 120_000);
});
