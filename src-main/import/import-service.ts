import { type DetectedSource, defaultSourceFolder, detectImportSources, readImportSource } from './import-source.js';
import type { ImportTargets } from './import-targets.js';
import type { ImportReport, ImportSource } from './import-types.js';
import { planImport } from './plan-import.js';

/** What the gateway offers: each tool's default folder only, plans and applies one at a time. */
export interface ImportService {
  detect(): Promise<DetectedSource[]>;
  plan(source: ImportSource): Promise<ImportReport>;
  apply(source: ImportSource): Promise<ImportReport>;
}

export function createImportService(deps: {
  targets: ImportTargets;
  /** The person's home folder, where ~/.openclaw and ~/.hermes are. */
  userHome: string;
  env: Record<string, string | undefined>;
}): ImportService {
  // One import at a time: two clicks must not both see "new" and write twice.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  const planned = async (source: ImportSource) => {
    const from = defaultSourceFolder(source, deps.userHome, deps.env);
    return planImport(await readImportSource(source, from, deps.userHome), deps.targets);
  };
  return {
    detect: () => detectImportSources(deps.userHome, deps.env),
    plan: (source) => serial(async () => (await planned(source)).report),
    apply: (source) => serial(async () => (await planned(source)).apply()),
  };
}
