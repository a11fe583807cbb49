import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { chatTurn } from './chat-turn.js';
import { type FakeLlmServer, startFakeLlmServer } from './fake-llm/index.js';
import { connectRaw, type RawGatewaySocket } from './raw-gateway-socket.js';
import { createTempHome } from './temp-home.js';
import { startTestHost, type TestHost } from './test-host.js';

/**
 * The whole product for a test: a fake LLM on loopback, a HEARTH_HOME whose hearth.json points
 * the `openai` provider at it (plus `config`), the composed host, an admin socket, and an API-key
 * auth profile stored through the gateway (encrypted-file secret store: no keychain in tests).
 */
export interface ProductFixture {
  llm: FakeLlmServer;
  host: TestHost;
  socket: RawGatewaySocket;
  home: string;
  /** Sends a chat turn and resolves with its terminal chat event (final or error). */
  turn(key: string, message: string, sessionKey?: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * hearth.json's `providers` and `agents` for a host whose only model is gpt-4o on the fake server;
 * with `contextWindow`, a small window so a few long turns reach compaction.
 */
export function fakeOpenAiConfig(llm: FakeLlmServer, options: { contextWindow?: number } = {}) {
  const models = options.contextWindow
    ? { models: { 'gpt-4o': { contextWindow: options.contextWindow, maxOutputTokens: 500 } } }
    : {};
  return {
    providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai'), ...models } },
    agents: { defaults: { model: 'openai/gpt-4o' } },
  };
}

export async function startProductFixture(
  options: {
    config?: Record<string, unknown>;
    env?: Record<string, string> | ((llm: FakeLlmServer) => Record<string, string>);
    before?(home: string): Promise<void>;
    /** A fake clock drives every timer of the product (heartbeat, cron…). */
    clock?: Clock;
  } = {},
): Promise<ProductFixture> {
  const llm = await startFakeLlmServer();
  const temp = await createTempHome();
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ ...fakeOpenAiConfig(llm), ...options.config }));
  await options.before?.(temp.home);
  const host = await startTestHost({
    home: temp.home,
    ...(options.clock ? { clock: options.clock } : {}),
    env: { HEARTH_SECRET_STORE: 'file', ...(typeof options.env === 'function' ? options.env(llm) : options.env) },
  });
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  await socket.request('auth.profiles.set', {
    id: 'openai-main',
    provider: 'openai',
    type: 'api_key',
    secret: 'sk-test-1234',
  });
  return {
    llm,
    host,
    socket,
    home: temp.home,
    turn: (key, message, sessionKey = 'main') => chatTurn(socket, { key, message, sessionKey }),
    async close() {
      socket.close();
      await host.close();
      await llm.close();
      await temp.cleanup();
    },
  };
}
