import { readFile, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { connectRaw, createTestDeviceKey } from '../testing/raw-gateway-socket.js';

// The OpenAI-compatible API driven by the official `openai` client against a real host on the
// fake LLM: a request is a turn of the named agent, in the session it names, through chat.send.

let product: ProductFixture;
let client: OpenAI;

beforeAll(async () => {
  product = await startProductFixture({
    config: {
      agents: { defaults: { model: 'openai/gpt-4o' }, list: [{ id: 'work' }] },
      // The remote-facing listener on loopback, so a test can be "elsewhere" without leaving the machine.
      gateway: { lan: { bind: '127.0.0.1' } },
    },
  });
  client = new OpenAI({ baseURL: `${product.host.url}/v1`, apiKey: product.host.token, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await product?.close();
});

async function history(sessionKey: string): Promise<string[]> {
  const response = await product.socket.request('chat.history', { sessionKey });
  const messages = (response.payload as { messages: { role: string; content: { text: string }[] }[] }).messages;
  return messages.map((m) => `${m.role}: ${m.content.map((c) => c.text).join('')}`);
}

/** GET over the TLS LAN listener (every peer counts as remote there), pinned to the gateway's certificate. */
async function lanGet(path: string, token: string): Promise<{ status: number; body: string }> {
  const { urls } = await product.host.ensureLan();
  const ca = await readFile(join(product.host.paths.identityDir, 'tls-cert.pem'), 'utf8');
  const url = new URL(path, urls[0]!.replace(/^wss:/, 'https:').replace('0.0.0.0', '127.0.0.1'));
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { ca, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** A device paired on loopback with the gateway token, holding only `scopes`: its own token. */
async function deviceToken(scopes: string[]): Promise<string> {
  const { socket, hello } = await connectRaw(product.host.wsUrl, {
    token: product.host.token,
    device: createTestDeviceKey(),
    scopes,
  });
  socket.close();
  const token = (hello.payload as { auth?: { deviceToken?: string } }).auth?.deviceToken;
  if (!token) throw new Error(`no device token in hello: ${JSON.stringify(hello)}`);
  return token;
}

describe('OpenAI-compatible API', () => {
  it('is off until gateway.openaiApi.enabled is set, and says how to turn it on', async () => {
    const error = await client.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toContain('gateway.openaiApi.enabled');
    const patched = await product.socket.request('config.patch', {
      patch: { gateway: { openaiApi: { enabled: true } } },
    });
    expect(patched.ok).toBe(true);
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['hearth/main', 'hearth/work']);
  });

  it('answers a chat completion with a turn of the agent, in the session the header names', async () => {
    const completion = await client.chat.completions.create(
      { model: 'hearth/main', messages: [{ role: 'user', content: 'plan the Lisbon trip' }] },
      { headers: { 'x-hearth-session': 'trips' } },
    );
    expect(completion.choices[0]?.message.content).toBe('echo: plan the Lisbon trip');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    // The same conversation a chat client sees, under agent:main:trips; the user's main chat is untouched.
    expect(await history('agent:main:trips')).toEqual([
      'user: plan the Lisbon trip',
      'assistant: echo: plan the Lisbon trip',
    ]);
    expect(await history('main')).toEqual([]);
  });

  it('streams the answer as chunks, with usage when asked', async () => {
    product.llm.script({ type: 'text', text: 'Leave on the twelfth, back on the twentieth.', chunkSize: 5 });
    const stream = await client.chat.completions.create({
      model: 'hearth/work',
      messages: [{ role: 'user', content: 'when?' }],
      stream: true,
      stream_options: { include_usage: true },
      user: 'alice',
    });
    const pieces: string[] = [];
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) pieces.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces.join('')).toBe('Leave on the twelfth, back on the twentieth.');
    expect(pieces.length).toBeGreaterThan(1);
    expect(finish).toBe('stop');
    expect(usage?.total_tokens).toBeGreaterThan(0);
    // The `user` field named the session of the agent the model named.
    expect(await history('agent:work:alice')).toContain('assistant: Leave on the twelfth, back on the twentieth.');
  });

  it('waits for an approval like any chat turn, and answers once it is given', async () => {
    await writeFile(join(product.home, 'workspace', 'plan.txt'), 'alpha');
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'wc -c plan.txt' } }] },
      { type: 'text', text: 'the plan has 5 bytes' },
    ]);
    const mark = product.socket.frames.length;
    const answer = client.chat.completions.create({
      model: 'hearth/main',
      messages: [{ role: 'user', content: 'how long is plan.txt?' }],
    });
    const asked = await product.socket.next(
      (f) => product.socket.frames.indexOf(f) >= mark && f.event === 'exec.approval.requested',
      20_000,
    );
    await product.socket.request('exec.approval.resolve', {
      id: (asked.payload as { id: string }).id,
      decision: 'allow-once',
    });
    expect((await answer).choices[0]?.message.content).toBe('the plan has 5 bytes');
  });

  it('refuses an unknown model with a 404 naming it', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('model_not_found');
    expect((error as Error).message).toContain("'gpt-4o' does not exist");
    const unknownAgent = await client.chat.completions
      .create({ model: 'hearth/nobody', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(unknownAgent).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses a bad body with a 400 that says what is wrong', async () => {
    const post = (body: string) =>
      fetch(`${product.host.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${product.host.token}`, 'content-type': 'application/json' },
        body,
      });
    const notJson = await post('{"model":');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toContain('not valid JSON');
    const noMessages = await post(JSON.stringify({ model: 'hearth/main', messages: [] }));
    expect(noMessages.status).toBe(400);
    expect(((await noMessages.json()) as { error: { message: string } }).error.message).toContain('messages');

    const lastNotUser = await client.chat.completions
      .create({
        model: 'hearth/main',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      })
      .catch((e: unknown) => e);
    expect(lastNotUser).toBeInstanceOf(OpenAI.BadRequestError);
    expect((lastNotUser as Error).message).toContain('the last message must be the user');
    const badSession = await client.chat.completions
      .create(
        { model: 'hearth/main', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-hearth-session': 'no/slashes' } },
      )
      .catch((e: unknown) => e);
    expect(badSession).toBeInstanceOf(OpenAI.BadRequestError);
    expect((badSession as Error).message).toContain('session label');
  });

  it('refuses a missing or wrong token (401) and a token without the chat scope (403)', async () => {
    const missing = await fetch(`${product.host.url}/v1/models`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('missing bearer token');
    const wrong = new OpenAI({ baseURL: `${product.host.url}/v1`, apiKey: 'not-a-token', maxRetries: 0 });
    expect(await wrong.models.list().catch((e: unknown) => e)).toBeInstanceOf(OpenAI.AuthenticationError);

    const readOnly = new OpenAI({
      baseURL: `${product.host.url}/v1`,
      apiKey: await deviceToken(['operator.read']),
      maxRetries: 0,
    });
    expect((await readOnly.models.list()).data.length).toBe(2);
    const denied = await readOnly.chat.completions
      .create({ model: 'hearth/main', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((denied as Error).message).toContain('operator.write');

    const writer = new OpenAI({
      baseURL: `${product.host.url}/v1`,
      apiKey: await deviceToken(['operator.write']),
      maxRetries: 0,
    });
    const completion = await writer.chat.completions.create({
      model: 'hearth/main',
      messages: [{ role: 'user', content: 'from my phone' }],
    });
    expect(completion.choices[0]?.message.content).toBe('echo: from my phone');
  });

  it('accepts the gateway token on loopback only; from elsewhere a device token is needed', async () => {
    const withSecret = await lanGet('/v1/models', product.host.token);
    expect(withSecret.status).toBe(403);
    expect(withSecret.body).toContain('loopback only');
    const withDevice = await lanGet('/v1/models', await deviceToken(['operator.read']));
    expect(withDevice.status).toBe(200);
    expect(withDevice.body).toContain('hearth/main');
  });

  it('stops the turn when the client hangs up before the answer is complete', async () => {
    product.llm.script({ type: 'text', text: 'a very slow answer', firstTokenDelayMs: 20_000 });
    const mark = product.socket.frames.length;
    const asked = product.llm.requests.length;
    const hangUp = new AbortController();
    const request = client.chat.completions
      .create(
        { model: 'hearth/main', messages: [{ role: 'user', content: 'take your time' }], stream: true },
        { signal: hangUp.signal },
      )
      .then(async (stream) => {
        for await (const _ of stream) {
          // drained until the hang-up
        }
      })
      .catch((e: unknown) => e);
    const started = await product.socket.next(
      (f) =>
        product.socket.frames.indexOf(f) >= mark &&
        f.event === 'agent' &&
        (f.payload as { runId: string; stream: string }).runId.startsWith('openai-') &&
        (f.payload as { stream: string }).stream === 'lifecycle',
      20_000,
    );
    const { runId } = started.payload as { runId: string };
    // Hang up once the model is being asked (the slow first token is on its way).
    for (let i = 0; i < 400 && product.llm.requests.length === asked; i++) await new Promise((r) => setTimeout(r, 25));
    hangUp.abort();
    await request;
    const end = await product.socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId: string }).runId === runId &&
        ['aborted', 'final', 'error'].includes((f.payload as { state: string }).state),
      20_000,
    );
    expect((end.payload as { state: string }).state).toBe('aborted');
  });
});
