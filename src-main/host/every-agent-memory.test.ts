import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { indexRunAfter, searchOnceIndexed } from '../testing/search-once-indexed.js';

// Several agents in one host: each has its own seeded workspace, its sessions read their own
// workspace files, and each one's memory is indexed when a client connects and re-indexed on
// hand edits — agents added to hearth.json while Hearth runs included.

let product: ProductFixture;
/** The `notes` agent keeps its workspace outside HEARTH_HOME (agents.list[].workspace). */
let notesWorkspace: string;

beforeAll(async () => {
  notesWorkspace = join(await mkdtemp(join(tmpdir(), 'hearth-own-workspace-')), 'notes');
  product = await startProductFixture({
    config: {
      agents: {
        defaults: { model: 'openai/gpt-4o' },
        list: [{ id: 'main', default: true }, { id: 'work' }, { id: 'notes', workspace: notesWorkspace }],
      },
    },
    before: async (home) => {
      await mkdir(join(notesWorkspace, 'memory'), { recursive: true });
      await writeFile(join(notesWorkspace, 'IDENTITY.md'), '# Identity\nNOTES-IDENTITY-MARKER\n');
      await writeFile(join(notesWorkspace, 'memory', '2026-11-28.md'), '- The bike lock code is 4471.\n');
      await mkdir(join(home, 'workspace'), { recursive: true });
      await writeFile(join(home, 'workspace', 'IDENTITY.md'), '# Identity\nMAIN-IDENTITY-MARKER\n');
      await mkdir(join(home, 'workspace-work', 'memory'), { recursive: true });
      await writeFile(join(home, 'workspace-work', 'IDENTITY.md'), '# Identity\nWORK-IDENTITY-MARKER\n');
      await writeFile(
        join(home, 'workspace-work', 'memory', '2026-11-29.md'),
        '- The quarterly report is due Friday.\n',
      );
    },
  });
});
afterAll(async () => {
  await product?.close();
});

async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

const fileExists = (path: string) =>
  stat(path).then(
    () => true,
    () => undefined,
  );

describe('memory and workspace files for every agent', () => {
  it('indexes every agent’s memory once a client is connected, without being asked', async () => {
    // Nothing in this test names "work": the connected socket alone got its index built.
    const index = join(product.home, 'agents', 'work', 'memory.lance', 'hearth-index.json');
    const state = await eventually(async () => {
      const parsed = JSON.parse(await readFile(index, 'utf8')) as { complete?: boolean };
      return parsed.complete ? parsed : undefined;
    }, 'the work agent’s index was built');
    expect(state.complete).toBe(true);
  });

  it('seeds each configured agent’s workspace from the templates', async () => {
    for (const file of ['SOUL.md', 'AGENTS.md', 'MEMORY.md']) {
      expect(await fileExists(join(product.home, 'workspace-work', file))).toBe(true);
    }
    // A file the user wrote is kept.
    expect(await readFile(join(product.home, 'workspace-work', 'IDENTITY.md'), 'utf8')).toContain(
      'WORK-IDENTITY-MARKER',
    );
  });

  it('gives each agent’s sessions that agent’s own workspace files', async () => {
    product.llm.script([{ type: 'text', text: 'Hello from work.' }]);
    await product.turn('work-1', 'hello', 'agent:work:main');
    const work = JSON.stringify(product.llm.requests.at(-1)!.body);
    expect(work).toContain('WORK-IDENTITY-MARKER');
    expect(work).not.toContain('MAIN-IDENTITY-MARKER');
    product.llm.script([{ type: 'text', text: 'Hello from main.' }]);
    await product.turn('main-1', 'hello', 'main');
    const main = JSON.stringify(product.llm.requests.at(-1)!.body);
    expect(main).toContain('MAIN-IDENTITY-MARKER');
    expect(main).not.toContain('WORK-IDENTITY-MARKER');
  });

  it('an agent with its own workspace folder reads, seeds and remembers there', async () => {
    product.llm.script([{ type: 'text', text: 'Hello from notes.' }]);
    await product.turn('notes-1', 'hello', 'agent:notes:main');
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toContain('NOTES-IDENTITY-MARKER');
    expect(await fileExists(join(notesWorkspace, 'SOUL.md'))).toBe(true);
    expect(await fileExists(join(product.home, 'workspace-notes'))).toBeUndefined();
    const found = await eventually(async () => {
      const reply = await product.socket.request('memory.search', { agentId: 'notes', query: 'bike lock code' });
      return JSON.stringify(reply.payload).includes('4471') ? reply : undefined;
    }, 'the notes agent’s own memory folder was indexed');
    expect(JSON.stringify(found.payload)).toContain('memory/2026-11-28.md');
  });

  it('re-indexes a hand edit in another agent’s workspace and says so', async () => {
    const from = product.socket.frames.length;
    await writeFile(
      join(product.home, 'workspace-work', 'memory', '2026-11-30.md'),
      '- The office plant is called Fernando.\n',
    );
    const changed = await indexRunAfter(product.socket, 'work', from);
    expect(changed.payload).toMatchObject({ agentId: 'work', reason: 'files' });
    // An index run that began before the edit may be the one that said so: search until the next.
    const found = await searchOnceIndexed(product.socket, { agentId: 'work', query: 'office plant' }, 'Fernando');
    expect(JSON.stringify(found.payload)).toContain('memory/2026-11-30.md');
    const mainHits = await product.socket.request('memory.search', { query: 'office plant' });
    expect(JSON.stringify(mainHits.payload)).not.toContain('Fernando');
  });

  it('seeds and watches an agent added to hearth.json while running', async () => {
    const patched = await product.socket.request('config.patch', {
      patch: {
        agents: {
          list: [
            { id: 'main', default: true },
            { id: 'work' },
            { id: 'notes', workspace: notesWorkspace },
            { id: 'garden' },
          ],
        },
      },
    });
    expect(patched.ok).toBe(true);
    const soul = join(product.home, 'workspace-garden', 'SOUL.md');
    await eventually(() => fileExists(soul), 'the garden agent’s workspace was seeded');
    const from = product.socket.frames.length;
    await writeFile(join(product.home, 'workspace-garden', 'memory', '2026-11-30.md'), '- Water the basil daily.\n');
    const changed = await indexRunAfter(product.socket, 'garden', from);
    expect(changed.payload).toMatchObject({ agentId: 'garden' });
    const found = await searchOnceIndexed(
      product.socket,
      { agentId: 'garden', query: 'basil' },
      'Water the basil daily',
    );
    expect(JSON.stringify(found.payload)).toContain('memory/2026-11-30.md');
  });
});
