import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { MemoryEmbedderConfig } from '../memory-config.js';
import type { CatalogueModel } from './model-catalogue.js';
import { downloadVerified, sha256Of } from './model-download.js';

/**
 * Installing a catalogue model into `<modelsDir>/<name>/`. Files collect in
 * `<modelsDir>/.incoming/<name>/` (each as `<file>.part` until its checksum passes); the folder
 * is moved into place only when every file is verified and the manifest is written, so a model
 * folder with a manifest is always complete, and an interrupted install leaves nothing that
 * counts as installed — only parts the next try resumes.
 */
export const MANIFEST_FILE = 'hearth-model.json';
const INCOMING = '.incoming';

export interface InstalledModel {
  name: string;
  dir: string;
  files: { path: string; sha256: string; size: number }[];
  installedAt: number;
  maxTokens?: number;
  pooling?: 'mean' | 'cls';
}

export interface ModelInstallProgress {
  name: string;
  phase: 'download' | 'verify';
  /** The file being fetched or checked, e.g. `model.onnx`. */
  file: string;
  /** Bytes of every file on disk so far, and in all (when the sizes are known). */
  received: number;
  total?: number;
}

export interface InstallModelDeps {
  modelsDir: string;
  fetch: typeof globalThis.fetch;
  now(): number;
  signal?: AbortSignal;
  onProgress?(progress: ModelInstallProgress): void;
}

export async function installModel(model: CatalogueModel, deps: InstallModelDeps): Promise<InstalledModel> {
  const incoming = join(deps.modelsDir, INCOMING, model.name);
  await mkdir(incoming, { recursive: true });
  const knownTotal = model.files.every((file) => file.size !== undefined)
    ? model.files.reduce((sum, file) => sum + (file.size ?? 0), 0)
    : undefined;
  let done = 0;
  const installed: InstalledModel['files'] = [];
  for (const file of model.files) {
    const target = join(incoming, file.path);
    const report = (phase: ModelInstallProgress['phase'], received: number, fileTotal?: number) =>
      deps.onProgress?.({
        name: model.name,
        phase,
        file: file.path,
        received: done + received,
        total: knownTotal ?? (fileTotal !== undefined ? done + fileTotal : undefined),
      });
    // A file verified by an earlier, interrupted install is kept if it still has the pinned bytes.
    if (!(await hasBytes(target, file.sha256))) {
      await downloadVerified({
        url: file.url,
        partPath: `${target}.part`,
        sha256: file.sha256,
        size: file.size,
        fetch: deps.fetch,
        signal: deps.signal,
        onBytes: (received, total) => report('download', received, total),
        onVerify: () => report('verify', file.size ?? 0),
      });
      await rename(`${target}.part`, target);
    }
    const size = (await stat(target)).size;
    done += size;
    report('verify', 0);
    installed.push({ path: file.path, sha256: file.sha256, size });
  }

  const manifest: InstalledModel = {
    name: model.name,
    dir: join(deps.modelsDir, model.name),
    files: installed,
    installedAt: deps.now(),
    ...(model.maxTokens ? { maxTokens: model.maxTokens } : {}),
    ...(model.pooling ? { pooling: model.pooling } : {}),
  };
  await writeFileAtomic(join(incoming, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, 0o644);
  // Swap in: an older install of the same name is moved aside first, then removed.
  const final = manifest.dir;
  const aside = join(deps.modelsDir, INCOMING, `${model.name}.old-${randomBytes(4).toString('hex')}`);
  const hadOld = await exists(final);
  if (hadOld) await rename(final, aside);
  await rename(incoming, final);
  await syncDir(dirname(final));
  if (hadOld) await rm(aside, { recursive: true, force: true });
  return manifest;
}

/** The installed model of that name, or undefined when it is absent or incomplete. */
export async function readInstalledModel(modelsDir: string, name: string): Promise<InstalledModel | undefined> {
  const dir = join(modelsDir, name);
  let manifest: InstalledModel;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as InstalledModel;
  } catch {
    return undefined;
  }
  if (manifest.name !== name || !Array.isArray(manifest.files)) return undefined;
  for (const file of manifest.files) {
    const size = await stat(join(dir, file.path)).then(
      (s) => s.size,
      () => -1,
    );
    if (size !== file.size) return undefined;
  }
  return { ...manifest, dir };
}

/** Bytes already fetched toward an install that did not finish (for "resume" in the UI). */
export async function partialBytes(modelsDir: string, model: CatalogueModel): Promise<number> {
  let bytes = 0;
  for (const file of model.files) {
    const base = join(modelsDir, INCOMING, model.name, file.path);
    for (const path of [base, `${base}.part`])
      bytes += await stat(path).then(
        (s) => s.size,
        () => 0,
      );
  }
  return bytes;
}

/** `memory.embedder` for an installed model. */
export function embedderConfigFor(model: InstalledModel): Extract<MemoryEmbedderConfig, { kind: 'onnx' }> {
  return {
    kind: 'onnx',
    modelDir: model.dir,
    ...(model.maxTokens ? { maxTokens: model.maxTokens } : {}),
    ...(model.pooling ? { pooling: model.pooling } : {}),
  };
}

/** Every key any `memory.embedder` kind may have: a merge patch clears the old kind's keys with them. */
const EMBEDDER_KEYS = [
  'kind',
  'dimension',
  'provider',
  'model',
  'baseUrl',
  'apiKeySecret',
  'modelDir',
  'maxTokens',
  'threads',
  'pooling',
] as const;

/**
 * A JSON merge patch of `memory.embedder` that leaves exactly `embedder` (a plain merge would
 * keep e.g. the hashed embedder's `dimension`, which the onnx kind refuses).
 */
export function embedderMergePatch(embedder: MemoryEmbedderConfig): Record<string, unknown> {
  return { ...Object.fromEntries(EMBEDDER_KEYS.map((key) => [key, null])), ...embedder };
}

async function hasBytes(path: string, sha256: string): Promise<boolean> {
  if (!(await exists(path))) return false;
  return (await sha256Of(path)) === sha256;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some filesystems refuse fsync on folders; the rename itself is still atomic.
  }
}
