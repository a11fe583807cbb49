import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events.js';
import type { SubagentEvent, SubagentView } from '../protocol/methods/subagents.js';
import type { FakeReply, FakeRequestInfo } from '../testing/fake-llm/index.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import type { AnyFrame } from '../testing/raw-gateway-socket.js';

// Agents talking to each other and subagents in the composed product: every turn runs on the fake
// LLM, the tools are called by name (loaded on demand), and the tests wait on the gateway's events.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: {
      agents: {
        defaults: { model: 'openai/gpt-4o', agentToAgent: { allow: [['main', 'research']] } },
        list: [{ id: 'main', default: true }, { id: 'research', canMessage: ['writer'] }, { id: 'writer' }],
      },
      memory: { recall: { enabled: false } },
    },
  });
});
afterAll(async () => {
  await product?.close();
});

const send = (agentId: string, message: string): FakeReply => ({
  type: 'tool_calls',
  calls: [{ name: 'sessions_send', input: { agentId, message } }],
});
const spawn = (input: Record<string, unknown>): FakeReply => ({
  type: 'tool_calls',
  calls: [{ name: 'sessions_spawn', input }],
});
const text = (value: string): FakeReply => ({ type: 'text', text: value });

async function history(sessionKey: string): Promise<string> {
  const response = await product.socket.request('chat.history', { sessionKey, limit: 200 });
  expect(response.ok).toBe(true);
  return JSON.stringify(response.payload);
}

const subagentEvent =
  (predicate: (event: SubagentEvent) => boolean) =>
  (frame: AnyFrame): boolean =>
    frame.type === 'event' && frame.event === 'subagent' && predicate(frame.payload as SubagentEvent);

function ended(id: string): Promise<SubagentView> {
  return product.socket
    .next(
      subagentEvent((event) => event.phase === 'ended' && event.subagent.id === id),
      30_000,
    )
    .then((frame) => (frame.payload as Extract<SubagentEvent, { phase: 'ended' }>).subagent);
}

function started(predicate: (view: SubagentView) => boolean): Promise<SubagentView> {
  return product.socket
    .next(
      subagentEvent((event) => event.phase === 'started' && predicate(event.subagent)),
      30_000,
    )
    .then((frame) => (frame.payload as Extract<SubagentEvent, { phase: 'started' }>).subagent);
}

/** Re-reads a transcript each time its session changes until it holds `needle`. */
async function historyUntil(sessionKey: string, needle: string): Promise<string> {
  for (;;) {
    const seen = product.socket.frames.length;
    const current = await history(sessionKey);
    if (current.includes(needle)) return current;
    await product.socket.next(
      (frame) =>
        product.socket.frames.indexOf(frame) >= seen &&
        frame.event === 'sessions.changed' &&
        (frame.payload as { key?: string }).key === sessionKey,
      30_000,
    );
  }
}

describe('agent to agent (sessions_send)', () => {
  it('two agents exchange messages within the ping-pong limit and stop at it', async () => {
    const replies: FakeReply[] = [];
    for (let turn = 1; turn <= 5; turn++) replies.push(send('research', `question ${turn}`), text(`answer ${turn}`));
    replies.push(send('research', 'question 6'), text('Research answered five times; that is all I asked.'));
    product.llm.script(replies);

    const end = await product.turn('a2a-1', 'consult research about the trip', 'main');
    expect(end).toMatchObject({ state: 'final' });
    expect(JSON.stringify(end)).toContain('that is all I asked');

    // The asking side: each reply came back as the tool result; the sixth send was refused.
    const mine = await history('agent:main:main');
    expect(mine).toContain('answer 5');
    expect(mine).toContain('turn 5 of 5 in this exchange');
    expect(mine).toContain('the exchange with research has had its 5 turns');
    // The other side: its own session holds the messages it was sent and what it said.
    const theirs = await history('agent:research:a2a-main');
    for (let turn = 1; turn <= 5; turn++) {
      expect(theirs).toContain(`question ${turn}`);
      expect(theirs).toContain(`answer ${turn}`);
    }
    expect(theirs).toContain('Message from agent \\"main\\"');
    expect(theirs).not.toContain('question 6');
  });

  it('refuses a pair the allowlist does not name, saying which key allows it', async () => {
    product.llm.script([send('writer', 'draft a poem'), text('Writer is not reachable from here.')]);
    const end = await product.turn('a2a-2', 'ask writer for a poem', 'main');
    expect(end).toMatchObject({ state: 'final' });
    const mine = await history('agent:main:main');
    expect(mine).toContain('main may not message writer');
    expect(mine).toContain('agents.defaults.agentToAgent.allow');
    expect(mine).toContain('agents.list[main].canMessage');
    const writerSessions = await product.socket.request('sessions.list', { agentId: 'writer' });
    expect(JSON.stringify(writerSessions.payload)).not.toContain('a2a-main');
  });

  it('a turn another agent asked may not ask in turn: it replies instead (no lane waits on itself)', async () => {
    // research may message writer (canMessage), but not from inside a turn main is waiting on.
    product.llm.script([
      send('research', 'find me a poet'),
      send('writer', 'are you a poet?'),
      text('I could not ask writer from here; try asking writer yourself.'),
      text('Research could not forward it.'),
    ]);
    const end = await product.turn('a2a-3', 'find a poet through research', 'main');
    expect(end).toMatchObject({ state: 'final' });
    const theirs = await history('agent:research:a2a-main');
    expect(theirs).toContain('it may not message other agents');
    expect(await history('agent:main:main')).toContain('I could not ask writer from here');
    const writerSessions = await product.socket.request('sessions.list', { agentId: 'writer' });
    expect(JSON.stringify(writerSessions.payload)).not.toContain('a2a-research');
  });
});

describe('subagents (sessions_spawn)', () => {
  it('a foreground subagent returns its result, and its call counts under the parent in usage', async () => {
    const before = (await product.socket.request('usage.summary', {})).payload as {
      topSessions: { sessionKey: string; calls: number }[];
      byPurpose: { purpose: string; calls: number }[];
    };
    const callsOf = (rows: { sessionKey: string; calls: number }[], key: string) =>
      rows.find((row) => row.sessionKey === key)?.calls ?? 0;
    product.llm.script([
      spawn({ task: 'count the moons of Mars', label: 'moons' }),
      text('Mars has 2 moons: Phobos and Deimos.'),
      text('The subagent found 2 moons.'),
    ]);
    const start = started((view) => view.label === 'moons');
    const end = await product.turn('sub-1', 'how many moons has Mars? use a subagent', 'main');
    expect(end).toMatchObject({ state: 'final' });
    const view = await start;
    expect(view).toMatchObject({ depth: 1, role: 'leaf', mode: 'foreground', parentSessionKey: 'agent:main:main' });
    expect(view.sessionKey).toBe(`agent:main:subagent:${view.id}`);
    const done = await ended(view.id);
    expect(done).toMatchObject({ status: 'ok', result: 'Mars has 2 moons: Phobos and Deimos.' });
    expect(done.cost.calls).toBe(1);
    expect(await history('agent:main:main')).toContain('Mars has 2 moons: Phobos and Deimos.');
    expect(await history(view.sessionKey)).toContain('count the moons of Mars');

    // Its system prompt is the minimal bootstrap (no HEARTBEAT.md, no MEMORY.md).
    const childRequest = product.llm.requests.find((request) => request.lastUserText.includes('count the moons'));
    const parentRequest = product.llm.requests.find((request) => request.lastUserText.includes('how many moons'));
    const systemOf = (body: Record<string, unknown> | undefined) =>
      JSON.stringify(
        (body?.messages as { role: string; content: unknown }[] | undefined)?.filter((m) => m.role === 'system'),
      );
    expect(systemOf(parentRequest?.body)).toContain('MEMORY.md');
    expect(systemOf(childRequest?.body)).toContain('SOUL.md');
    expect(systemOf(childRequest?.body)).not.toContain('MEMORY.md');

    const after = (await product.socket.request('usage.summary', {})).payload as typeof before;
    expect(callsOf(after.topSessions, 'agent:main:main') - callsOf(before.topSessions, 'agent:main:main')).toBe(3);
    expect(after.topSessions.map((row) => row.sessionKey)).not.toContain(view.sessionKey);
    const subagentCalls = (rows: { purpose: string; calls: number }[]) =>
      rows.find((row) => row.purpose === 'subagent')?.calls ?? 0;
    expect(subagentCalls(after.byPurpose) - subagentCalls(before.byPurpose)).toBe(1);
  });

  it('streams what a subagent does for a live card: its text, its tools, its cost, under the spawning call', async () => {
    const reply = 'I read SOUL.md; the persona is ready.';
    product.llm.script([
      spawn({ task: 'read the persona file', label: 'reader' }),
      { type: 'tool_calls', calls: [{ name: 'read', input: { path: 'SOUL.md' } }] },
      { type: 'text', text: reply, chunkSize: 5 },
      text('The reader is done.'),
    ]);
    const seen = product.socket.frames.length;
    const start = started((view) => view.label === 'reader');
    const end = await product.turn('sub-live', 'read the persona with a subagent', 'main');
    expect(end).toMatchObject({ state: 'final' });
    const view = await start;
    const done = await ended(view.id);
    expect(done).toMatchObject({ status: 'ok', result: reply, steps: 1 });

    // The card is found by the parent's sessions_spawn call: the same id as in the parent's transcript.
    const spawnCall = product.socket.frames
      .slice(seen)
      .map((frame) => frame.payload as AgentEvent)
      .find(
        (payload) =>
          payload.sessionKey === 'agent:main:main' &&
          payload.stream === 'tool' &&
          payload.data.phase === 'call' &&
          payload.data.name === 'sessions_spawn',
      );
    expect(spawnCall).toBeDefined();
    expect(view.toolCallId).toBe((spawnCall!.data as { toolCallId: string }).toolCallId);
    expect(await history('agent:main:main')).toContain(view.toolCallId!);

    const steps = product.socket.frames
      .filter(subagentEvent((e) => e.phase === 'step' && e.id === view.id))
      .map((frame) => (frame.payload as Extract<SubagentEvent, { phase: 'step' }>).step);
    expect(steps.filter((step) => step.kind !== 'text' && step.kind !== 'cost')).toMatchObject([
      { kind: 'tool_call', name: 'read' },
      { kind: 'tool_result', name: 'read', isError: false },
    ]);
    // The reply streamed in pieces, and they add up to what the subagent said.
    const pieces = steps.flatMap((step) => (step.kind === 'text' ? [step.delta] : []));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(reply);
    // Its cost moved after each of its two model calls, up to what the end reports.
    const costs = steps.flatMap((step) => (step.kind === 'cost' ? [step.cost] : []));
    expect(costs.map((cost) => cost.calls)).toEqual([1, 2]);
    expect(costs.at(-1)).toEqual(done.cost);
  });

  it('a background subagent finishes later and the parent is told (event and transcript notice)', async () => {
    // The parent's next call and the subagent's first race: one reply source answers both by content.
    const either = (request: FakeRequestInfo): FakeReply =>
      request.lastUserText.includes('[Task from')
        ? text('Background report: 42 files checked.')
        : text('I started it in the background.');
    product.llm.script([spawn({ task: 'check every file', mode: 'background', label: 'checker' }), either, either]);
    const start = started((view) => view.label === 'checker');
    const end = await product.turn('sub-2', 'check the files in the background', 'main');
    expect(end).toMatchObject({ state: 'final' });
    const view = await start;
    expect(view.mode).toBe('background');
    const done = await ended(view.id);
    expect(done).toMatchObject({ status: 'ok', result: 'Background report: 42 files checked.' });
    const notice = await historyUntil('agent:main:main', `Subagent ${view.id} \\"checker\\"`);
    expect(notice).toContain('Background report: 42 files checked.');
    const listed = await product.socket.request('subagents.list', { sessionKey: 'main' });
    expect(JSON.stringify(listed.payload)).toContain(view.id);
  });

  it('enforces the role and depth caps', async () => {
    // A leaf may not spawn.
    product.llm.script([
      spawn({ task: 'leaf task', label: 'leafy' }),
      spawn({ task: 'nested task' }),
      text('I could not spawn, so I did it myself.'),
      text('Done.'),
    ]);
    const leafStart = started((view) => view.label === 'leafy');
    await product.turn('sub-3', 'try a leaf', 'main');
    const leaf = await leafStart;
    expect(await history(leaf.sessionKey)).toContain('is a leaf (role chosen by its parent)');
    // A live card sees its steps: the refused call and its result, then the end with the step count.
    const steps = product.socket.frames
      .filter(subagentEvent((e) => e.phase === 'step' && e.id === leaf.id))
      .map((frame) => (frame.payload as Extract<SubagentEvent, { phase: 'step' }>).step)
      .filter((step) => step.kind === 'tool_call' || step.kind === 'tool_result');
    expect(steps).toMatchObject([
      { kind: 'tool_call', name: 'sessions_spawn' },
      { kind: 'tool_result', name: 'sessions_spawn', isError: true },
    ]);
    expect(await ended(leaf.id)).toMatchObject({ status: 'ok', steps: 1 });

    // main 0 → orchestrator 1 → orchestrator asked at 2 (the default cap), which is a leaf there.
    product.llm.script([
      spawn({ task: 'level one', role: 'orchestrator', label: 'one' }),
      spawn({ task: 'level two', role: 'orchestrator', label: 'two' }),
      spawn({ task: 'level three', label: 'three' }),
      text('level two did it itself'),
      { type: 'tool_calls', calls: [{ name: 'subagents_list', input: {} }] },
      text('level one done'),
      text('all levels done'),
    ]);
    const one = started((view) => view.label === 'one');
    const two = started((view) => view.label === 'two');
    const end = await product.turn('sub-4', 'go three deep', 'main');
    expect(end).toMatchObject({ state: 'final' });
    expect(await one).toMatchObject({ depth: 1, role: 'orchestrator', controlScope: 'children' });
    const second = await two;
    expect(second).toMatchObject({ depth: 2, role: 'leaf', controlScope: 'none', rootSessionKey: 'agent:main:main' });
    expect(await history(second.sessionKey)).toContain('subagents may nest 2 deep');
    // The orchestrator lists its own: level two, ended ok.
    expect(await history((await one).sessionKey)).toContain(`${second.id} \\"two\\" — ok, depth 2, leaf`);
    expect(
      product.socket.frames.some(subagentEvent((e) => e.phase === 'started' && e.subagent.label === 'three')),
    ).toBe(false);
  });

  it('aborting the parent aborts its subagents, foreground and background', async () => {
    // The subagents' model calls never answer until the run is aborted (the fake ends when the client goes).
    const slow = (request: FakeRequestInfo): FakeReply =>
      request.lastUserText.includes('[Task from')
        ? { type: 'text', text: 'too late', firstTokenDelayMs: 600_000 }
        : text('unexpected');
    product.llm.script([
      spawn({ task: 'long job', role: 'orchestrator', label: 'outer' }),
      spawn({ task: 'longer job', mode: 'background', label: 'inner' }),
      slow,
      slow,
    ]);
    const outerStart = started((view) => view.label === 'outer');
    const innerStart = started((view) => view.label === 'inner');
    await product.socket.request('chat.send', {
      sessionKey: 'main',
      message: 'start the long jobs',
      idempotencyKey: 'sub-5',
    });
    const outer = await outerStart;
    const inner = await innerStart;
    expect(inner).toMatchObject({ parentSessionKey: outer.sessionKey, depth: 2 });
    const running = await product.socket.request('subagents.list', { sessionKey: 'main', status: 'running' });
    const ids = (running.payload as { subagents: SubagentView[] }).subagents.map((view) => view.id);
    expect(ids).toEqual(expect.arrayContaining([outer.id, inner.id]));

    const outerEnd = ended(outer.id);
    const innerEnd = ended(inner.id);
    expect((await product.socket.request('chat.abort', { sessionKey: 'main' })).ok).toBe(true);
    expect(await outerEnd).toMatchObject({ status: 'aborted' });
    expect(await innerEnd).toMatchObject({ status: 'aborted' });
    await product.socket.next(
      (frame) =>
        frame.event === 'chat' &&
        (frame.payload as { runId?: string; state?: string }).runId === 'sub-5' &&
        (frame.payload as { state?: string }).state === 'aborted',
      30_000,
    );
    // A subagent aborted before its model call leaves its scripted reply unserved.
    product.llm.reset();
  });

  it('subagents.abort stops one by id, and refuses an unknown id by name', async () => {
    const either = (request: FakeRequestInfo): FakeReply =>
      request.lastUserText.includes('[Task from')
        ? { type: 'text', text: 'too late', firstTokenDelayMs: 600_000 }
        : text('Started.');
    product.llm.script([spawn({ task: 'idle forever', mode: 'background', label: 'idler' }), either, either]);
    const start = started((view) => view.label === 'idler');
    await product.turn('sub-6', 'start an idler', 'main');
    const view = await start;
    const done = ended(view.id);
    const aborted = await product.socket.request('subagents.abort', { id: view.id });
    expect(aborted.payload).toEqual({ aborted: [view.id] });
    expect(await done).toMatchObject({ status: 'aborted' });
    const unknown = await product.socket.request('subagents.abort', { id: 'nope' });
    expect(unknown).toMatchObject({ ok: false });
    expect(JSON.stringify(unknown)).toContain('no subagent \\"nope\\"');
  });
});
