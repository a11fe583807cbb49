import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBootstrapLoader, type FileProbe, nodeFileProbe } from './bootstrap-loader.js';
import { seedWorkspace } from './seed-workspace.js';
import { buildSystemPrompt } from './system-prompt.js';
import { truncateBootstrapText } from './truncate-bootstrap.js';
import { createTruncationWarner } from './truncation-warning.js';
import { MINIMAL_BOOTSTRAP_ALLOWLIST, selectBootstrapFiles } from './workspace-files.js';

const templatesDir = resolve(import.meta.dirname, '../../../resources/workspace');
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-ws-'));
});
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

describe('truncateBootstrapText', () => {
  it('keeps exactly head 70% and tail 20% with a marker between', () => {
    const text = `${'H'.repeat(15_000)}${'M'.repeat(10_000)}${'T'.repeat(5_000)}`;
    const cut = truncateBootstrapText('MEMORY.md', text, 20_000);
    expect(cut).toMatchObject({
      truncated: true,
      rawChars: 30_000,
      headChars: 14_000,
      tailChars: 4_000,
      keptChars: 18_000,
    });
    expect(cut.text.startsWith('H'.repeat(14_000) + '\n\n[… 12000 characters of MEMORY.md cut here')).toBe(true);
    expect(cut.text.endsWith(`…]\n\n${'T'.repeat(4_000)}`)).toBe(true);
  });

  it('leaves a file at the limit alone', () => {
    expect(truncateBootstrapText('A.md', 'x'.repeat(20_000), 20_000).truncated).toBe(false);
  });

  it('rejects a bad maxChars by name', () => {
    expect(() => truncateBootstrapText('A.md', 'x', -1)).toThrow(/maxChars for A.md/);
  });
});

describe('selectBootstrapFiles', () => {
  const main = { agentId: 'main', sessionKind: 'main' as const };
  it('default run: all files in a fixed order', () => {
    expect(selectBootstrapFiles({ ...main, runKind: 'default' })).toEqual([
      'IDENTITY.md',
      'SOUL.md',
      'USER.md',
      'AGENTS.md',
      'TOOLS.md',
      'MEMORY.md',
      'HEARTBEAT.md',
      'BOOTSTRAP.md',
    ]);
  });
  it('heartbeat run: HEARTBEAT.md only', () => {
    expect(selectBootstrapFiles({ ...main, runKind: 'heartbeat' })).toEqual(['HEARTBEAT.md']);
  });
  it('cron run: none unless configured, and then only allowlisted files', () => {
    expect(selectBootstrapFiles({ agentId: 'main', sessionKind: 'cron', runKind: 'cron' })).toEqual([]);
    expect(
      selectBootstrapFiles(
        { agentId: 'main', sessionKind: 'cron', runKind: 'cron' },
        { cronFiles: ['USER.md', 'MEMORY.md'] },
      ),
    ).toEqual(['USER.md']);
  });
  it('subagent sessions get only AGENTS, TOOLS, SOUL, IDENTITY, USER', () => {
    const files = selectBootstrapFiles({ agentId: 'main', sessionKind: 'subagent', runKind: 'default' });
    expect(new Set(files)).toEqual(new Set(MINIMAL_BOOTSTRAP_ALLOWLIST));
    expect(files).not.toContain('MEMORY.md');
  });
  it('plugins change the list through a hook; the allowlist still applies', () => {
    const hook = (files: readonly string[]) => [...files.filter((f) => f !== 'HEARTBEAT.md'), 'notes/PROJECT.md'];
    expect(selectBootstrapFiles({ ...main, runKind: 'default' }, { hooks: [hook] })).toContain('notes/PROJECT.md');
    expect(selectBootstrapFiles({ ...main, runKind: 'default' }, { hooks: [hook] })).not.toContain('HEARTBEAT.md');
    expect(
      selectBootstrapFiles({ agentId: 'main', sessionKind: 'subagent', runKind: 'default' }, { hooks: [hook] }),
    ).not.toContain('notes/PROJECT.md');
  });
  it('refuses hook paths outside the workspace and unknown run kinds', () => {
    expect(() => selectBootstrapFiles({ ...main, runKind: 'default' }, { hooks: [() => ['../secret.md']] })).toThrow(
      /inside the workspace/,
    );
    expect(() => selectBootstrapFiles({ ...main, runKind: 'weekly' as never })).toThrow(
      /unknown bootstrap run kind: weekly/,
    );
  });
});

describe('seedWorkspace', () => {
  it('creates files from templates on first run and never overwrites user edits', async () => {
    const first = await seedWorkspace({ workspaceDir: dir, templatesDir });
    expect(first.firstRun).toBe(true);
    expect(first.created).toContain('BOOTSTRAP.md');
    expect(first.created).toContain('SOUL.md');
    await writeFile(join(dir, 'SOUL.md'), 'my own soul');
    await rm(join(dir, 'BOOTSTRAP.md'));
    await rm(join(dir, 'TOOLS.md'));
    const second = await seedWorkspace({ workspaceDir: dir, templatesDir });
    expect(second).toEqual({ created: ['TOOLS.md'], firstRun: false });
    expect(await readFile(join(dir, 'SOUL.md'), 'utf8')).toBe('my own soul');
    expect(await readdir(dir)).not.toContain('BOOTSTRAP.md');
    expect(await readdir(dir)).toContain('memory');
  });

  it('names the missing templates folder', async () => {
    await expect(seedWorkspace({ workspaceDir: dir, templatesDir: join(dir, 'nope') })).rejects.toThrow(
      /templates folder .*nope/,
    );
  });
});

describe('bootstrap loader', () => {
  const selection = { agentId: 'main', runKind: 'default' as const, sessionKind: 'main' as const, sessionKey: 's1' };

  it('loads within per-file and total budgets and renders stable text', async () => {
    await seedWorkspace({ workspaceDir: dir, templatesDir });
    await writeFile(join(dir, 'MEMORY.md'), 'm'.repeat(3_000));
    const loader = createBootstrapLoader({ workspaceDir: dir, maxChars: 1_000, totalMaxChars: 100_000 });
    const result = await loader.load(selection);
    const memory = result.files.find((f) => f.name === 'MEMORY.md');
    expect(memory).toMatchObject({ rawChars: 3_000, injectedChars: 900, truncated: true });
    expect(result.truncationSignature).toBe('MEMORY.md:3000>900');
    expect(result.text).toContain('## SOUL.md');
    expect(result.text).toContain('characters of MEMORY.md cut here');
    expect(result.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('spends the total budget in order and leaves out what does not fit', async () => {
    for (const name of ['IDENTITY.md', 'SOUL.md', 'USER.md'])
      await writeFile(join(dir, name), name[0]?.repeat(600) ?? '');
    const loader = createBootstrapLoader({ workspaceDir: dir, maxChars: 1_000, totalMaxChars: 1_000 });
    const files = (await loader.load(selection)).files.filter((f) => !f.missing);
    expect(files.map((f) => [f.name, f.injectedChars, f.omitted])).toEqual([
      ['IDENTITY.md', 600, false],
      ['SOUL.md', 360, false],
      ['USER.md', 0, true],
    ]);
  });

  it('caches per session and re-reads only when a file changes', async () => {
    await seedWorkspace({ workspaceDir: dir, templatesDir });
    let reads = 0;
    const probe: FileProbe = {
      stat: nodeFileProbe.stat,
      readFile: (p) => {
        reads += 1;
        return nodeFileProbe.readFile(p);
      },
    };
    const loader = createBootstrapLoader({ workspaceDir: dir, probe });
    const a = await loader.load(selection);
    const readsAfterFirst = reads;
    const b = await loader.load(selection);
    expect(b).toBe(a);
    expect(reads).toBe(readsAfterFirst);
    await writeFile(join(dir, 'USER.md'), '# User\n- Name: Ada');
    await utimes(join(dir, 'USER.md'), new Date(), new Date(Date.UTC(2030, 0, 1)));
    const c = await loader.load(selection);
    expect(c.text).toContain('Name: Ada');
    loader.invalidate('s1');
    expect(await loader.load(selection)).not.toBe(c);
  });

  it('reads USER.md and MEMORY.md from the session’s personal folders only', async () => {
    await seedWorkspace({ workspaceDir: dir, templatesDir });
    await writeFile(join(dir, 'MEMORY.md'), 'ROOT-FACT');
    await mkdir(join(dir, 'users', 'alice'), { recursive: true });
    await writeFile(join(dir, 'users', 'alice', 'MEMORY.md'), 'ALICE-FACT');
    await writeFile(join(dir, 'users', 'alice', 'USER.md'), 'Alice likes sailing');
    const loader = createBootstrapLoader({ workspaceDir: dir });
    const alice = await loader.load({ ...selection, sessionKey: 'a', personalFolders: ['users/alice'] });
    expect(alice.text).toContain('## users/alice/MEMORY.md\nALICE-FACT');
    expect(alice.text).toContain('## users/alice/USER.md\nAlice likes sailing');
    expect(alice.text).not.toContain('ROOT-FACT');
    expect(alice.text).toContain('## SOUL.md');
    const nobody = await loader.load({ ...selection, sessionKey: 'g', personalFolders: [] });
    expect(nobody.text).not.toMatch(/## (?:.*\/)?(?:MEMORY|USER)\.md|FACT/);
    expect(nobody.text).toContain('## SOUL.md');
    const owner = await loader.load({ ...selection, sessionKey: 'o', personalFolders: ['', 'users/alice'] });
    expect(owner.text.indexOf('ROOT-FACT')).toBeLessThan(owner.text.indexOf('ALICE-FACT'));
    expect((await loader.load(selection)).text).toContain('ROOT-FACT');
  });

  it('refuses a personal folder outside the workspace', async () => {
    const loader = createBootstrapLoader({ workspaceDir: dir });
    await expect(loader.load({ ...selection, personalFolders: ['../other'] })).rejects.toThrow(/inside the workspace/);
  });

  it('rejects bad budgets by name', () => {
    expect(() => createBootstrapLoader({ workspaceDir: dir, maxChars: 0 })).toThrow(/maxChars/);
    expect(() => createBootstrapLoader({ workspaceDir: dir, totalMaxChars: 1.5 })).toThrow(/totalMaxChars/);
  });
});

describe('truncation warning', () => {
  const cutResult = (raw: number) => ({
    files: [
      {
        name: 'MEMORY.md',
        missing: false,
        rawChars: raw,
        injectedChars: 900,
        truncated: true,
        omitted: false,
        content: '',
      },
    ],
    text: '',
    truncationSignature: `MEMORY.md:${raw}>900`,
  });

  it('once: warns the first time per session and signature, again when the cut changes', () => {
    const warner = createTruncationWarner('once');
    expect(warner.warningFor('s1', cutResult(3_000))).toContain('- MEMORY.md: 3000 chars, 900 injected');
    expect(warner.warningFor('s1', cutResult(3_000))).toBeUndefined();
    expect(warner.warningFor('s2', cutResult(3_000))).toBeDefined();
    expect(warner.warningFor('s1', cutResult(4_000))).toContain('4000 chars');
  });
  it('always: warns every turn; off: never', () => {
    const always = createTruncationWarner('always');
    expect(always.warningFor('s1', cutResult(3_000))).toBeDefined();
    expect(always.warningFor('s1', cutResult(3_000))).toBeDefined();
    expect(createTruncationWarner('off').warningFor('s1', cutResult(3_000))).toBeUndefined();
  });
  it('says nothing when nothing was cut, and rejects unknown modes', () => {
    expect(
      createTruncationWarner('always').warningFor('s1', { files: [], text: '', truncationSignature: '' }),
    ).toBeUndefined();
    expect(() => createTruncationWarner('sometimes' as never)).toThrow(/off, once or always/);
  });
});

describe('buildSystemPrompt', () => {
  it('is small, stable and lists skills by name only', () => {
    const input = {
      bootstrapText: '# Workspace files',
      skillNames: ['weather', 'calendar'],
      memoryTools: { search: 'memory_search' },
    };
    const prompt = buildSystemPrompt(input);
    expect(buildSystemPrompt(input)).toBe(prompt);
    expect(prompt).toContain('Skills: calendar, weather. Before using one, read skills/<name>/SKILL.md.');
    expect(prompt).toContain('call memory_search first');
    expect(prompt.length).toBeLessThan(800);
  });
});
