import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { type AnyFrame, connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';

// OpenClaw's `openclaw agent --session-key agent:main:<label> --message …` against Hearth: the
// CLI connects as client `cli` in mode `cli` (as in shared/fixtures/openclaw-v4-transcript.jsonl)
// and sends the `agent` request with the params its agent-via-gateway command builds (deliver and
// timeout always present), then reads the two-phase answer. The turn runs on the fake LLM.

let product: ProductFixture;
let cli: RawGatewaySocket;

beforeAll(async () => {
  product = await startProductFixture();
  ({ socket: cli } = await connectRaw(product.host.wsUrl, {
    token: product.host.token,
    clientId: 'cli',
    clientMode: 'cli',
    scopes: ['operator.write'],
  }));
});
afterAll(async () => {
  cli?.close();
  await product?.close();
});

const responses = (id: string) => (frame: AnyFrame) => frame.type === 'res' && frame.id === id;

describe("OpenClaw's agent RPC on a named session", () => {
  it('runs a turn in agent:main:<label>, its own chat beside main', async () => {
    product.llm.script([{ type: 'text', text: 'Noted in work notes.' }]);
    const id = '3:6a1f0e2c-7b7d-4a49-9a52-1c5f3d0c9e11';
    cli.send({
      type: 'req',
      id,
      method: 'agent',
      params: {
        message: 'remember the quarterly review',
        sessionKey: 'agent:main:work-notes',
        deliver: false,
        timeout: 600,
        idempotencyKey: 'oc-agent-1',
      },
    });
    const accepted = await cli.next(responses(id));
    expect(accepted).toMatchObject({ ok: true, payload: { runId: 'oc-agent-1', status: 'accepted' } });
    const final = await cli.next((frame) => responses(id)(frame) && frame !== accepted, 30_000);
    expect(final).toMatchObject({
      ok: true,
      payload: { runId: 'oc-agent-1', status: 'ok', summary: 'Noted in work notes.' },
    });

    // OpenClaw's CLI then polls agent.wait; the run is done.
    expect(await cli.request('agent.wait', { runId: 'oc-agent-1', timeoutMs: 1000 })).toMatchObject({
      ok: true,
      payload: { status: 'ok' },
    });

    const history = await cli.request('chat.history', { sessionKey: 'agent:main:work-notes' });
    expect(JSON.stringify(history.payload)).toContain('remember the quarterly review');
    expect(JSON.stringify(history.payload)).toContain('Noted in work notes.');
    const main = await cli.request('chat.history', { sessionKey: 'main' });
    expect(JSON.stringify(main.payload)).not.toContain('quarterly review');

    const list = await cli.request('sessions.list', { agentId: 'main' });
    const row = (list.payload as { sessions: Record<string, unknown>[] }).sessions.find(
      (session) => session.key === 'agent:main:work-notes',
    );
    expect(row).toMatchObject({ agentId: 'main', label: 'work-notes', kind: 'direct' });
  });

  it('a chat made with sessions.create takes chat.send turns, then forks and deletes', async () => {
    const created = await product.socket.request('sessions.create', { agentId: 'main', title: 'Groceries' });
    const key = (created.payload as { key: string }).key;
    expect(key).toMatch(/^agent:main:chat-[0-9a-f]{8}$/);
    product.llm.script([{ type: 'text', text: 'Milk and eggs.' }]);
    const end = await product.turn('named-1', 'what do we need?', key);
    expect(end).toMatchObject({ state: 'final', sessionKey: key });

    const history = await product.socket.request('chat.history', { sessionKey: key });
    const messages = (history.payload as { messages: { id: string; role: string }[] }).messages;
    const question = messages.find((message) => message.role === 'user')!;
    const fork = await product.socket.request('sessions.fork', { key, messageId: question.id });
    const forkKey = (fork.payload as { key: string; session: { messageCount: number; title: string } }).key;
    expect(fork.payload).toMatchObject({ session: { messageCount: 1, title: 'Groceries' } });
    const forked = await product.socket.request('chat.history', { sessionKey: forkKey });
    expect(JSON.stringify(forked.payload)).toContain('what do we need?');
    expect(JSON.stringify(forked.payload)).not.toContain('Milk and eggs.');

    // Forking after the reply by its run id (what the UI does for an answer it saw stream).
    const afterReply = await product.socket.request('sessions.fork', { key, runId: 'named-1' });
    expect(afterReply.payload).toMatchObject({ session: { messageCount: 2 } });

    expect(await product.socket.request('sessions.delete', { key, deleteTranscript: true })).toMatchObject({
      payload: { deleted: true, transcriptDeleted: true },
    });
    const keys = (
      (await product.socket.request('sessions.list', { agentId: 'main' })).payload as { sessions: { key: string }[] }
    ).sessions.map((session) => session.key);
    expect(keys).toContain(forkKey);
    expect(keys).not.toContain(key);
  });

  it.each([
    ['agent:main:../../etc', /session label "\.\.\/\.\.\/etc" is not allowed/],
    ['agent:main:a%00b', /not allowed/],
    ['agent:main:work-notes:extra', /unknown peer kind/],
    ['agent:Main:x', /invalid agent id "Main"/],
  ])('refuses the agent RPC on %j with a clear error', async (sessionKey, message) => {
    const answer = await cli.request('agent', { message: 'hi', sessionKey, idempotencyKey: `bad-${sessionKey}` });
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect(answer.error?.message).toMatch(message);
  });

  it('refuses an agentId that disagrees with the key', async () => {
    const answer = await cli.request('agent', {
      message: 'hi',
      agentId: 'dev',
      sessionKey: 'agent:main:work-notes',
      idempotencyKey: 'bad-agent',
    });
    expect(answer.error?.message).toMatch(/belongs to agent "main", not agentId "dev"/);
  });
});
