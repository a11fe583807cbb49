import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAcpScopes } from '../cli/commands/acp.js';
import { connectToGateway } from '../cli/gateway-connection.js';
import { connectionFromClient } from '../mcp-server/index.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { createHearthAcpAgent } from './index.js';

// Hearth as an ACP agent, driven by the official library's client side: in process (the
// client app connected straight to the agent app) against a real gateway socket on the fake
// LLM, and as the real `hearth acp` child process over stdio.

const hearthBin = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));
let product: ProductFixture;
const opened: { close(): void | Promise<void> }[] = [];

beforeAll(async () => {
  product = await startProductFixture();
}, 60_000);
afterAll(async () => {
  for (const item of opened.reverse()) await item.close();
  await product?.close();
});

type PermissionAnswer = (
  request: acp.RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<acp.RequestPermissionResponse>;

interface Editor {
  agent: acp.ClientContext;
  updates: acp.SessionNotification[];
  asks: acp.RequestPermissionRequest[];
  answer: { next: PermissionAnswer };
}

function editorApp(editor: Pick<Editor, 'updates' | 'asks' | 'answer'>): acp.ClientApp {
  return acp
    .client({ name: 'test-editor' })
    .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => {
      editor.asks.push(params);
      return editor.answer.next(params, signal);
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      editor.updates.push(params);
    });
}

/** An editor connected to a Hearth ACP agent whose gateway connection holds the default scopes. */
async function editor(): Promise<Editor> {
  const gateway = await connectToGateway(
    { url: product.host.wsUrl, token: product.host.token },
    { scopes: defaultAcpScopes },
  );
  const hello = await gateway.waitForConnected();
  const agentApp = createHearthAcpAgent(connectionFromClient(gateway, hello.auth.scopes), { version: 'test' });
  const state = {
    updates: [] as acp.SessionNotification[],
    asks: [] as acp.RequestPermissionRequest[],
    answer: { next: (async () => ({ outcome: { outcome: 'cancelled' } })) as PermissionAnswer },
  };
  const connection = editorApp(state).connect(agentApp);
  opened.push({
    close() {
      connection.close();
      gateway.dispose();
    },
  });
  const init = await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
  return { agent: connection.agent, ...state };
}

const newSession = async (agent: acp.ClientContext) =>
  (await agent.request(acp.methods.agent.session.new, { cwd: product.home, mcpServers: [] })).sessionId;

const prompt = (agent: acp.ClientContext, sessionId: string, text: string) =>
  agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });

function chunksOf(updates: acp.SessionNotification[], kind: 'agent_message_chunk' | 'user_message_chunk'): string[] {
  return updates.flatMap(({ update }) =>
    update.sessionUpdate === kind && update.content.type === 'text' ? [update.content.text] : [],
  );
}

function toolUpdates(updates: acp.SessionNotification[]) {
  return updates.flatMap(({ update }) =>
    update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update' ? [update] : [],
  );
}

describe('hearth ACP agent', () => {
  it('streams the answer of a prompt as agent_message_chunks, and session/load replays the conversation', async () => {
    const first = await editor();
    const sessionId = await newSession(first.agent);
    expect(sessionId).toMatch(/^agent:main:acp-[0-9a-f-]+$/);

    product.llm.script({ type: 'text', text: 'The ferry leaves at nine from Cais do Sodré.', chunkSize: 6 });
    const response = await prompt(first.agent, sessionId, 'when is the ferry?');
    expect(response.stopReason).toBe('end_turn');
    const chunks = chunksOf(first.updates, 'agent_message_chunk');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe('The ferry leaves at nine from Cais do Sodré.');

    // The same conversation is a Hearth session: another editor reopens it by its id.
    const second = await editor();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: product.home, mcpServers: [] });
    expect(chunksOf(second.updates, 'user_message_chunk')).toEqual(['when is the ferry?']);
    expect(chunksOf(second.updates, 'agent_message_chunk')).toEqual(['The ferry leaves at nine from Cais do Sodré.']);
    second.updates.length = 0;
    const next = await prompt(second.agent, sessionId, 'thanks');
    expect(next.stopReason).toBe('end_turn');
    expect(chunksOf(second.updates, 'agent_message_chunk').join('')).toBe('echo: thanks');
  });

  it('refuses what it cannot take with the reason', async () => {
    const { agent } = await editor();
    await expect(prompt(agent, 'agent:main:acp-never-made', 'hi')).rejects.toThrow(/not found/i);
    const sessionId = await newSession(agent);
    await expect(
      agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
      }),
    ).rejects.toThrow('image content is not supported');
    await expect(
      agent.request(acp.methods.agent.session.load, { sessionId: 'agent:Bad Agent:x', cwd: '/', mcpServers: [] }),
    ).rejects.toThrow('invalid agent id');
  });

  it('asks session/request_permission for an exec call, and the answer decides it', async () => {
    const { agent, updates, asks, answer } = await editor();
    await writeFile(join(product.home, 'workspace', 'tide.txt'), 'high at 14:10');
    const sessionId = await newSession(agent);

    // Allowed once: the command runs and the turn goes on.
    answer.next = async (request) => ({
      outcome: { outcome: 'selected', optionId: request.options.find((o) => o.kind === 'allow_once')!.optionId },
    });
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat tide.txt' } }] },
      { type: 'text', text: 'High tide is at 14:10.' },
    ]);
    expect((await prompt(agent, sessionId, 'when is high tide?')).stopReason).toBe('end_turn');
    expect(asks).toHaveLength(1);
    expect(asks[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const [call, done] = toolUpdates(updates);
    expect(call).toMatchObject({ sessionUpdate: 'tool_call', kind: 'execute', status: 'in_progress' });
    expect(call!.title).toContain('cat tide.txt');
    expect(asks[0]!.toolCall).toMatchObject({ toolCallId: call!.toolCallId, title: 'cat tide.txt' });
    expect(done).toMatchObject({
      sessionUpdate: 'tool_call_update',
      toolCallId: call!.toolCallId,
      status: 'completed',
    });
    expect(JSON.stringify(done)).toContain('high at 14:10');
    expect(chunksOf(updates, 'agent_message_chunk').join('')).toBe('High tide is at 14:10.');

    // Rejected: the command does not run; the model is told it was denied.
    updates.length = 0;
    answer.next = async () => ({ outcome: { outcome: 'selected', optionId: 'deny' } });
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat tide.txt' } }] },
      { type: 'text', text: 'I was not allowed to look.' },
    ]);
    expect((await prompt(agent, sessionId, 'and now?')).stopReason).toBe('end_turn');
    expect(asks).toHaveLength(2);
    const rejected = toolUpdates(updates).find((u) => u.sessionUpdate === 'tool_call_update');
    expect(rejected?.status).toBe('failed');
    expect(JSON.stringify(rejected)).not.toContain('high at 14:10');
    expect(chunksOf(updates, 'agent_message_chunk').join('')).toBe('I was not allowed to look.');
  });

  it('session/cancel stops the run: the pending ask is withdrawn and the prompt ends cancelled', async () => {
    const { agent, updates, answer } = await editor();
    const sessionId = await newSession(agent);
    // The editor cancels the prompt while Hearth waits on its answer, then sees the ask withdrawn.
    answer.next = async (_request, signal) => {
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return { outcome: { outcome: 'cancelled' } };
    };
    product.llm.script({ type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat tide.txt' } }] });
    const mark = product.socket.frames.length;
    expect((await prompt(agent, sessionId, 'look at the tide')).stopReason).toBe('cancelled');
    await product.socket.next(
      (f) =>
        product.socket.frames.indexOf(f) >= mark &&
        f.event === 'chat' &&
        (f.payload as { sessionKey: string; state: string }).sessionKey === sessionId &&
        (f.payload as { state: string }).state === 'aborted',
      20_000,
    );
    const unfinished = toolUpdates(updates).at(-1);
    expect(unfinished).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'failed' });
    // Nothing is left waiting on an answer.
    expect((await product.socket.request('exec.approval.list', {})).payload).toEqual([]);
  });

  it('runs as `hearth acp` over stdio', async () => {
    const child: ChildProcess = spawn(process.execPath, [hearthBin, 'acp', '--url', product.host.wsUrl], {
      env: { ...process.env, HEARTH_HOME: product.home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const state = {
      updates: [] as acp.SessionNotification[],
      asks: [],
      answer: { next: (async () => ({ outcome: { outcome: 'cancelled' } })) as PermissionAnswer },
    };
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    );
    const connection = editorApp(state).connect(stream);
    await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    const sessionId = await newSession(connection.agent);
    expect((await prompt(connection.agent, sessionId, 'over stdio')).stopReason).toBe('end_turn');
    expect(chunksOf(state.updates, 'agent_message_chunk').join('')).toBe('echo: over stdio');
    // Closing stdin ends it.
    child.stdin!.end();
    connection.close();
    await exited;
  }, 120_000);
});
