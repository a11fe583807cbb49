import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantRecalls } from '../testing/planted-recalls.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// Review mode over the wire: a Dreaming run queues its candidates and writes nothing the
// person wrote; they wait across a restart; the person approves one (exactly that one is
// appended to MEMORY.md) and rejects the other.

const MINE = '# Memory\n\nMine, by hand.\n';
let temp: Awaited<ReturnType<typeof createTempHome>>;
let host: TestHost;
let socket: RawGatewaySocket;

async function start() {
  host = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
  ({ socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] }));
}

beforeAll(async () => {
  temp = await createTempHome();
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ memory: { dreaming: { review: true } } }));
  const workspace = join(temp.home, 'workspace');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  await writeFile(join(workspace, 'MEMORY.md'), MINE);
  await writeFile(join(workspace, 'memory', '2026-11-20.md'), '- Oat milk in coffee\n- The wifi is Hearth-5G\n');
  await plantRecalls(
    workspace,
    [
      { text: 'Oat milk in coffee', path: 'memory/2026-11-20.md', line: 1 },
      { text: 'The wifi is Hearth-5G', path: 'memory/2026-11-20.md', line: 2 },
    ],
    new Date(),
  );
  await start();
});
afterAll(async () => {
  socket?.close();
  await host?.close();
  await temp?.cleanup();
});

const memoryFile = () => join(temp.home, 'workspace', 'MEMORY.md');

describe('Dreaming review over the gateway', () => {
  it('queues, survives a restart, and writes exactly what the person approves', async () => {
    const before = await stat(memoryFile());
    const run = await socket.request('dreams.run', {});
    expect(run.ok).toBe(true);
    expect(run.payload).toMatchObject({ mode: 'review', applied: false, promoted: [] });
    expect((run.payload as { queued: unknown[] }).queued).toHaveLength(2);
    expect(await readFile(memoryFile(), 'utf8')).toBe(MINE);
    expect((await stat(memoryFile())).mtimeMs).toBe(before.mtimeMs);
    const status = await socket.request('dreams.status', {});
    expect(status.payload).toMatchObject({ review: true, pending: 2, last: { applied: false, queued: 2 } });

    // A restart: the queue is on disk.
    socket.close();
    await host.close();
    await start();
    const pending = (await socket.request('dreams.pending', {})).payload as {
      candidates: { id: string; text: string; diff: string }[];
    };
    expect(pending.candidates.map((c) => c.text).sort()).toEqual(['Oat milk in coffee', 'The wifi is Hearth-5G']);
    const oat = pending.candidates.find((c) => c.text === 'Oat milk in coffee')!;
    const wifi = pending.candidates.find((c) => c.text !== oat.text)!;
    expect(oat.diff).toMatch(/^--- MEMORY\.md\n\+\+\+ MEMORY\.md\n@@ .* @@\n # Memory\n/);
    expect(oat.diff).toContain('\n+- Oat milk in coffee');

    const reviewed = await socket.request('dreams.review', { approve: [oat.id], reject: [wifi.id] });
    expect(reviewed.payload).toMatchObject({
      approved: [{ id: oat.id, text: 'Oat milk in coffee' }],
      rejected: [{ id: wifi.id }],
      refused: [],
    });
    const after = await readFile(memoryFile(), 'utf8');
    expect(after.startsWith(MINE)).toBe(true);
    expect(after.slice(MINE.length)).toMatch(
      /^\n## Promoted by Dreaming — \d{4}-\d{2}-\d{2}\n\n- Oat milk in coffee\n$/,
    );
    expect(((await socket.request('dreams.pending', {})).payload as { candidates: unknown[] }).candidates).toEqual([]);

    const unknown = await socket.request('dreams.review', { approve: ['cafebabe'] });
    expect(unknown.ok).toBe(false);
    expect(unknown.error?.message).toMatch(/no pending candidate cafebabe \(pending: none\)/);
    const empty = await socket.request('dreams.review', {});
    expect(empty.ok).toBe(false);
  });

  it('a read-only client can list but not decide', async () => {
    const { socket: reader } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.read'] });
    expect((await reader.request('dreams.pending', {})).ok).toBe(true);
    expect((await reader.request('dreams.review', { reject: ['x'] })).ok).toBe(false);
    reader.close();
  });
});
