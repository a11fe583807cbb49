import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { checkImports } from './check-imports.mjs';

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-imports.mjs');
const run = promisify(execFile);
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-imports-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function file(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

function violations(exceptions = new Set<string>()): Violation[] {
  return checkImports(root, exceptions).violations;
}

describe('the import-boundary check (npm run lint)', () => {
  it('passes imports that follow the layer table', async () => {
    await file('src-main/base/index.ts', 'export const x = 1;\n');
    await file('src-main/memory/index.ts', "export { x } from '../base/index.js';\n");
    await file('src-main/gateway/methods/memory.ts', "import { x } from '../../memory/index.js';\n");
    await file('src-renderer/stores/a.ts', "import type { EventName } from '../../src-main/protocol/index.js';\n");
    await file('src-main/app/main.ts', "import { app } from 'electron';\n");
    expect(violations()).toEqual([]);
  });

  it('fails a capability that imports the gateway, naming the file, line and rule', async () => {
    await file(
      'src-main/memory/recall.ts',
      "import { x } from './a.js';\nimport type { EventBus } from '../gateway/event-bus.js';\n",
    );
    expect(violations()).toEqual([
      {
        file: 'src-main/memory/recall.ts',
        line: 2,
        specifier: '../gateway/event-bus.js',
        rule: 'capabilities never import the gateway, the host or a shell',
      },
    ]);
  });

  it('fails a deep import past a capability index.ts, the renderer reaching a capability, electron outside the shell', async () => {
    await file(
      'src-main/gateway/methods/memory.ts',
      "import { MemoryService } from '../../memory/memory-service.js';\n",
    );
    await file('src-renderer/stores/chat.ts', "import type { AgentMessage } from '../../src-main/agent/index.js';\n");
    await file('src-main/host/tray.ts', "import { Tray } from 'electron';\n");
    await file(
      'extensions/channel-x/index.ts',
      "import { createSessionStore } from '../../src-main/sessions/index.js';\n",
    );
    expect(violations().map((v) => `${v.file}: ${v.rule}`)).toEqual([
      'src-main/gateway/methods/memory.ts: import memory through src-main/memory/index.ts',
      'src-main/host/tray.ts: electron is imported only by src-main/app and src-preload',
      'src-renderer/stores/chat.ts: the renderer imports only protocol of src-main',
      'extensions/channel-x/index.ts: extensions import only the plugin SDK and protocol',
    ]);
  });

  it('fails config/ importing a capability, and roster/ or import/ importing the host', async () => {
    await file('src-main/config/config-service.ts', "import { x } from '../base/index.js';\n");
    await file('src-main/config/config-schema.ts', "import { memoryConfigSchema } from '../memory/index.js';\n");
    await file('src-main/roster/roster-service.ts', "import { hearthConfigSchema } from '../host/hearth-config.js';\n");
    await file('src-main/import/plan-import.ts', "import type { HearthConfig } from '../host/hearth-config.js';\n");
    expect(violations().map((v) => `${v.file}: ${v.rule}`)).toEqual([
      'src-main/config/config-schema.ts: config knows no capability (the schema aggregation lives in host/hearth-config.ts)',
      'src-main/import/plan-import.ts: capabilities never import the gateway, the host or a shell',
      'src-main/roster/roster-service.ts: capabilities never import the gateway, the host or a shell',
    ]);
  });

  it('fails product code that imports test support, and lets tests import it', async () => {
    await file('src-main/memory/recall.ts', "import { createFakeClock } from '../testing/fake-clock.js';\n");
    await file('src-main/memory/recall.test.ts', "import { createFakeClock } from '../testing/fake-clock.js';\n");
    expect(violations().map((v) => `${v.file}: ${v.rule}`)).toEqual([
      'src-main/memory/recall.ts: product code never imports test support (src-main/testing is not shipped)',
    ]);
  });

  it('lets a listed exception through, and reports one that no longer occurs', async () => {
    await file(
      'src-main/gateway/methods/memory.ts',
      "import { MemoryService } from '../../memory/memory-service.js';\n",
    );
    const listed = 'src-main/gateway/methods/memory.ts -> src-main/memory/memory-service.js';
    const gone = 'src-main/cli/x.ts -> src-main/memory/y.js';
    const result = checkImports(root, new Set([listed, gone]));
    expect(result.violations).toEqual([]);
    expect(result.staleExceptions).toEqual([gone]);
  });

  it('exits non-zero on the command line, so npm run lint fails', async () => {
    await file('src-main/agent/loop.ts', "import { startHearth } from '../host/start-hearth.js';\n");
    const failed = await run('node', [script, root]).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('src-main/agent/loop.ts:1: capabilities never import');
  });
});
