import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import type { AnyFrame } from '../testing/raw-gateway-socket.js';

// Claude Code and Codex as the engine of an agent, in a real host: the agents `claude` and
// `codex` run the fake CLIs of src-main/testing (node scripts that write each tool's documented
// JSONL), which record their argv so the second turn's resume is seen, and whose "hang" scenario
// starts a grandchild holding a socket to this test, so the whole tree's death on abort is an event.

const fake = (name: string) => fileURLToPath(new URL(`../testing/${name}`, import.meta.url));

let product: ProductFixture;
let hold: Server;
let records: string;
const holders: { pid: number; closed: Promise<void> }[] = [];
let holderArrived: (() => void) | undefined;

const backends = [
  {
    agent: 'claude',
    label: 'Claude Code',
    record: '',
    script: fake('fake-claude-cli.mjs'),
    model: 'claude-code/claude-sonnet-4-5-20250929',
    // 12 fresh + 100 cache creation + 300 cache reads, of which 300 cached.
    usage: { inputTokens: 412, outputTokens: 40, cachedInputTokens: 300 },
    tool: 'Bash',
    answer: 'Listing the files for: hello there',
    failure: 'Claude Code reported an error: API Error: 529 overloaded',
    crash: /^Claude Code exited with code 3 before finishing its answer: fatal: simulated crash in the fake claude$/,
    resumeFlag: (argv: string[]) => (argv.includes('--resume') ? argv[argv.indexOf('--resume') + 1] : undefined),
  },
  {
    agent: 'codex',
    label: 'Codex',
    record: '',
    script: fake('fake-codex-cli.mjs'),
    model: 'codex/codex',
    usage: { inputTokens: 500, outputTokens: 60, cachedInputTokens: 200 },
    tool: 'shell',
    answer: 'Done: hello there',
    failure: 'Codex reported an error: unexpected status 401 Unauthorized',
    crash:
      /^Codex exited with code 101 before finishing its answer: thread panicked: simulated crash in the fake codex$/,
    resumeFlag: (argv: string[]) => (argv.includes('resume') ? argv[argv.indexOf('resume') + 1] : undefined),
  },
];

beforeAll(async () => {
  hold = createServer((socket: Socket) => {
    socket.setEncoding('utf8');
    socket.once('data', (pid: string) => {
      holders.push({
        pid: Number(pid.trim()),
        closed: new Promise((resolve) => socket.once('close', () => resolve())),
      });
      holderArrived?.();
    });
  });
  await new Promise<void>((resolve) => hold.listen(0, '127.0.0.1', resolve));
  const port = (hold.address() as { port: number }).port;
  records = await mkdtemp(join(tmpdir(), 'hearth-cli-runs-'));
  for (const backend of backends) backend.record = join(records, `${backend.agent}-runs.jsonl`);
  product = await startProductFixture({
    config: {
      agents: {
        defaults: { model: 'openai/gpt-4o' },
        list: [
          { id: 'main', default: true },
          ...backends.map((backend) => ({
            id: backend.agent,
            engine: {
              cli: backend.agent === 'claude' ? 'claude-code' : 'codex',
              command: [process.execPath, backend.script, '--record', backend.record, '--hold-port', String(port)],
            },
          })),
          {
            id: 'lead',
            engine: {
              cli: 'claude-code',
              command: [process.execPath, backends[0]!.script, '--record', backends[0]!.record],
              for: 'subagents',
            },
          },
          { id: 'broken', engine: { cli: 'gemini-cli' } },
          { id: 'missing', engine: { cli: 'codex', command: '/nonexistent/hearth-test-codex' } },
        ],
      },
    },
  });
});
afterAll(async () => {
  await product?.close();
  await new Promise((resolve) => hold?.close(resolve));
  await rm(records, { recursive: true, force: true });
});

/** The run's frames (chat and agent events) once its chat event reaches `final`, `error` or `aborted`. */
async function runTurn(sessionKey: string, message: string, runId: string) {
  const sent = await product.socket.request('chat.send', { sessionKey, message, idempotencyKey: runId });
  expect(sent).toMatchObject({ ok: true });
  const end = await product.socket.next(
    (frame) =>
      frame.event === 'chat' &&
      (frame.payload as { runId?: string }).runId === runId &&
      ['final', 'error', 'aborted'].includes((frame.payload as { state: string }).state),
    30_000,
  );
  return { end: end.payload as Record<string, unknown>, ...framesOf(runId) };
}

function framesOf(runId: string) {
  const mine = product.socket.frames.filter(
    (frame: AnyFrame) => frame.type === 'event' && (frame.payload as { runId?: string })?.runId === runId,
  );
  const payloads = (event: string, stream?: string) =>
    mine
      .filter((f) => f.event === event && (!stream || (f.payload as { stream?: string }).stream === stream))
      .map((f) => f.payload as Record<string, unknown> & { data: Record<string, unknown> });
  return {
    deltas: payloads('chat')
      .filter((p) => p.state === 'delta')
      .map((p) => p.deltaText as string),
    tools: payloads('agent', 'tool').map((p) => p.data),
    usage: payloads('agent', 'usage').map((p) => p.data),
  };
}

async function runs(file: string): Promise<{ argv: string[]; pid: number; cwd: string; prompt: string }[]> {
  const text = await readFile(file, 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.argv);
}

describe.each(backends)('$label as the engine of an agent', (backend) => {
  const key = `agent:${backend.agent}:main`;

  it('answers a chat turn: streamed text, tool events, usage metered; the next turn resumes its session', async () => {
    const first = await runTurn(key, 'hello there', `${backend.agent}-1`);
    expect(first.end.state).toBe('final');
    const text = (first.end.message as { content: { text: string }[] }).content[0]!.text;
    expect(text).toContain(backend.answer);
    expect(first.deltas.join('')).toBe(text);
    expect(first.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ phase: 'call', name: backend.tool }),
        expect.objectContaining({ phase: 'result', name: backend.tool, isError: false }),
      ]),
    );
    expect(first.usage).toEqual([backend.usage]);
    expect(first.end.usage).toEqual(backend.usage);

    const [run1] = await runs(backend.record);
    expect(run1!.cwd).toBe(join(product.home, `workspace-${backend.agent}`));
    expect(run1!.prompt).toBe('hello there');
    expect(backend.resumeFlag(run1!.argv)).toBeUndefined();

    const summary = await product.socket.request('usage.summary', {});
    const row = (summary.payload as { byModel: { model: string; inputTokens: number }[] }).byModel.find(
      (r) => r.model === backend.model,
    );
    expect(row).toMatchObject({ inputTokens: backend.usage.inputTokens });

    const second = await runTurn(key, 'and again', `${backend.agent}-2`);
    expect(second.end.state).toBe('final');
    const [, run2] = await runs(backend.record);
    const resumed = backend.resumeFlag(run2!.argv);
    expect(resumed).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(second.end.message)).toContain(`Resumed ${resumed}: you said and again`);

    // The transcript has both turns, the CLI's tool calls included.
    const history = await product.socket.request('chat.history', { sessionKey: key });
    const transcript = JSON.stringify(history.payload);
    expect(transcript).toContain('hello there');
    expect(transcript).toContain(backend.tool);
  });

  it('ends the turn with the error the CLI reported', async () => {
    const { end } = await runTurn(key, 'fail please', `${backend.agent}-fail`);
    expect(end).toMatchObject({ state: 'error', errorMessage: backend.failure });
  });

  it('ends the turn with a clear error when the CLI crashes mid-stream, after what it streamed', async () => {
    const { end, deltas } = await runTurn(key, 'crash now', `${backend.agent}-crash`);
    expect(end.state).toBe('error');
    expect(end.errorMessage).toMatch(backend.crash);
    expect(deltas.join('')).toBe('Starting on it');
  });

  it('kills the whole process tree on abort', async () => {
    const arrived = new Promise<void>((resolve) => {
      holderArrived = resolve;
    });
    const runId = `${backend.agent}-hang`;
    expect(
      await product.socket.request('chat.send', { sessionKey: key, message: 'hang', idempotencyKey: runId }),
    ).toMatchObject({ ok: true });
    await arrived;
    const grandchild = holders.at(-1)!;
    await product.socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId?: string; state?: string }).runId === runId &&
        (f.payload as { state: string }).state === 'delta',
    );
    expect(await product.socket.request('chat.abort', { sessionKey: key, runId })).toMatchObject({ ok: true });
    await product.socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId?: string }).runId === runId &&
        (f.payload as { state: string }).state === 'aborted',
    );
    // The CLI was reaped before the turn ended; its grandchild's socket closed with it.
    const cli = (await runs(backend.record)).find((entry) => entry.prompt === 'hang')!;
    expect(() => process.kill(cli.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    await grandchild.closed;
  });
});

describe('CLI engines: what else a person notices', () => {
  it("says which tools Claude Code's permission mode refused, and never bypasses it", async () => {
    const { end } = await runTurn('agent:claude:denied', 'deny this', 'claude-deny');
    expect(end.state).toBe('final');
    expect(JSON.stringify(end.message)).toContain("Claude Code's permission mode refused: Edit");
    const run = (await runs(backends[0]!.record)).at(-1)!;
    expect(run.argv).toEqual(expect.arrayContaining(['--permission-mode', 'default']));
    expect(run.argv).not.toContain('--dangerously-skip-permissions');
  });

  it.each([
    ['allow-once', 'Edited notes.md.', false],
    ['deny', 'I was not allowed to edit notes.md.', true],
  ] as const)(
    "asks the person through Hearth's approvals when Claude Code prompts (%s)",
    async (decision, reply, isError) => {
      const runId = `claude-ask-${decision}`;
      const sent = await product.socket.request('chat.send', {
        sessionKey: `agent:claude:ask-${decision}`,
        message: 'ask before you edit',
        idempotencyKey: runId,
      });
      expect(sent).toMatchObject({ ok: true });
      const asked = await product.socket.next(
        (f) =>
          f.event === 'exec.approval.requested' &&
          (f.payload as { sessionKey?: string }).sessionKey === `agent:claude:ask-${decision}`,
      );
      const request = asked.payload as { id: string; host?: string; command: string; reasons: { detail: string }[] };
      expect(request.host).toBe('cli:claude-code');
      expect(request.command).toContain('claude-code Edit {"file_path":"notes.md"');
      expect(request.reasons.map((r) => r.detail)).toContain('Claude Code asks to use Edit');
      expect(await product.socket.request('exec.approval.resolve', { id: request.id, decision })).toMatchObject({
        ok: true,
      });
      const end = await product.socket.next(
        (f) =>
          f.event === 'chat' &&
          (f.payload as { runId?: string }).runId === runId &&
          (f.payload as { state: string }).state === 'final',
      );
      expect(JSON.stringify((end.payload as { message: unknown }).message)).toContain(reply);
      expect(framesOf(runId).tools).toContainEqual(expect.objectContaining({ phase: 'result', name: 'Edit', isError }));
      const run = (await runs(backends[0]!.record)).at(-1)!;
      expect(run.argv).toContain('--permission-prompt-tool');
    },
  );

  it('runs the subagents of an agent on the CLI with engine.for "subagents", the agent itself on its model', async () => {
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'sessions_spawn', input: { task: 'list the notes folder' } }] },
      { type: 'text', text: 'The subagent reported back.' },
    ]);
    const { end } = await runTurn('agent:lead:main', 'delegate the listing', 'lead-1');
    expect(end).toMatchObject({ state: 'final', model: 'openai/gpt-4o' });
    expect(JSON.stringify(end.message)).toContain('The subagent reported back.');
    const run = (await runs(backends[0]!.record)).at(-1)!;
    expect(run.prompt).toContain('list the notes folder');
    expect(run.cwd).toBe(join(product.home, 'workspace-lead'));
    // The CLI's answer came back to the parent's model as the spawn's tool result.
    const last = product.llm.requests.at(-1)!;
    expect(JSON.stringify(last.body)).toContain('Listing the files for:');
  });

  it('ends the turn with an error naming the program and the setting when the CLI is not installed', async () => {
    const { end } = await runTurn('agent:missing:main', 'hello', 'missing-1');
    expect(end).toMatchObject({
      state: 'error',
      errorMessage:
        'Codex could not be started: "/nonexistent/hearth-test-codex" was not found; install it or set agents.list[].engine.command to its path',
    });
  });

  it('refuses a turn for an engine no plugin provides, naming the config key and what exists', async () => {
    const sent = await product.socket.request('chat.send', {
      sessionKey: 'agent:broken:main',
      message: 'hi',
      idempotencyKey: 'broken-1',
    });
    expect(sent).toMatchObject({
      ok: false,
      error: {
        message:
          'agents.list[id=broken].engine.cli is "gemini-cli", but no CLI backend has that id (available: claude-code, codex)',
      },
    });
  });
});
