// A Telegram message through the whole product: fake Bot API server on loopback → the telegram
// plugin's long poll → channel host (DM policy) → chat.send → composed runtime → real AI SDK →
// fake LLM answering at once → the streamed reply's first sendMessage back at the fake server.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger } from '../src-main/base/logger.js';
import { startHearth } from '../src-main/host/start-hearth.js';
import { createHearthPaths } from '../src-main/paths/index.js';
import { openSecretStore } from '../src-main/secrets/index.js';
import { startFakeLlmServer } from '../src-main/testing/fake-llm/index.js';
import { startFakeTelegramServer } from '../src-main/testing/fake-telegram-server.js';
import { connectRaw } from '../src-main/testing/raw-gateway-socket.js';
import { createTempHome } from '../src-main/testing/temp-home.js';
import { type BenchResult, percentile } from './bench-result.js';

const CONVERSATIONS = 100;
const SEQUENTIAL = 40;

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const llm = await startFakeLlmServer();
  llm.setDefault((request) => ({ type: 'text', text: `Got it: ${request.lastUserText.slice(-12)}.`, chunkSize: 64 }));
  const telegram = await startFakeTelegramServer();
  const temp = await createTempHome('hearth-bench-channels-');
  const senders = Array.from({ length: CONVERSATIONS + 1 }, (_, i) => 5_000 + i);
  try {
    await writeFile(
      join(temp.home, 'hearth.json'),
      JSON.stringify({
        providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
        agents: { defaults: { model: 'openai/gpt-4o' } },
        memory: { recall: { enabled: false }, capture: { enabled: false } },
        channels: { telegram: { apiBaseUrl: telegram.url, allowFrom: senders.map(String) } },
      }),
    );
    const { store } = await openSecretStore({
      paths: createHearthPaths(temp.home),
      log: silentLogger,
      env: { HEARTH_SECRET_STORE: 'file' },
    });
    await store.set('channels.telegram.token', telegram.token);
    const host = await startHearth({
      home: temp.home,
      port: 0,
      log: silentLogger,
      env: { HEARTH_SECRET_STORE: 'file' },
    });
    await host.ready;
    const { socket } = await connectRaw(host.url.replace(/^http/, 'ws'), {
      token: host.token,
      scopes: ['operator.admin'],
    });
    await socket.request('auth.profiles.set', { id: 'k', provider: 'openai', type: 'api_key', secret: 'sk-bench' });
    await telegram.waitForCall('getUpdates', () => true, 30_000);

    // One person, one message at a time: message in → first streamed text out.
    const first = senders[0]!;
    const latencies: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const sentBefore = telegram.calls.length;
      const t0 = process.hrtime.bigint();
      telegram.sendUserMessage({ chatId: first, from: { id: first, first_name: 'Bench' }, text: `message ${i}` });
      await telegram.waitForCall(
        'sendMessage',
        (call) => telegram.calls.indexOf(call) >= sentBefore && call.params.chat_id === first,
        30_000,
      );
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      await telegram.waitForBotMessage(
        first,
        (m) => m.parseMode === 'MarkdownV2' && m.text.includes(`${i}\\.`),
        30_000,
      );
    }
    const warm = latencies.slice(5).sort((a, b) => a - b);
    results.push({
      name: 'telegram message in → first streamed text out, p50',
      value: percentile(warm, 50),
      unit: 'ms',
      budget: '≤ 50 ms',
      note: `${warm.length} warm messages, fake LLM`,
    });
    results.push({
      name: 'telegram message in → first streamed text out, p95',
      value: percentile(warm, 95),
      unit: 'ms',
    });

    // 100 people writing at once.
    const llmBefore = llm.requests.length;
    const t0 = process.hrtime.bigint();
    for (const id of senders.slice(1))
      telegram.sendUserMessage({ chatId: id, from: { id, first_name: 'P' }, text: `from ${id}` });
    await Promise.all(
      senders.slice(1).map((id) => telegram.waitForBotMessage(id, (m) => m.parseMode === 'MarkdownV2', 120_000)),
    );
    const allMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const asked = llm.requests.slice(llmBefore).map((r) => r.lastUserText);
    let lost = 0;
    let duplicated = 0;
    for (const id of senders.slice(1)) {
      const times = asked.filter((text) => text.includes(`from ${id}`)).length;
      const replies = telegram.botMessages(id).length;
      if (times === 0 || replies === 0) lost++;
      if (times > 1 || replies > 1) duplicated++;
    }
    results.push({
      name: `${CONVERSATIONS} concurrent telegram conversations: all answered`,
      value: allMs,
      unit: 'ms',
    });
    results.push({
      name: `${CONVERSATIONS} concurrent conversations: lost messages`,
      value: lost,
      unit: 'count',
      budget: '0',
    });
    results.push({
      name: `${CONVERSATIONS} concurrent conversations: duplicated messages`,
      value: duplicated,
      unit: 'count',
      budget: '0',
    });
    socket.close();
    await host.dispose();
  } finally {
    await telegram.close();
    await llm.close();
    await temp.cleanup();
  }
  return results;
}
