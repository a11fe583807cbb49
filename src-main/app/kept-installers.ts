import { copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';

/**
 * The installers of the versions this machine updated to, kept so the person can go back.
 * electron-updater replaces the app in place (NSIS, Squirrel.Mac, AppImage) and its cache keeps only
 * the pending download, so without this an update that misbehaves can only be undone by finding an
 * older release on the web. Each downloaded update's installer is copied here; the newest two are
 * kept: the one being installed and the one of the version running now, which is what "go back"
 * runs. A first install from the website has no kept installer, and says so.
 */
export interface KeptInstaller {
  version: string;
  /** Absolute path of the installer file. */
  file: string;
  keptAtMs: number;
}

interface KeptList {
  version: 1;
  installers: KeptInstaller[];
}

const keptListSchema: z.ZodType<KeptList> = z.looseObject({
  version: z.literal(1),
  installers: z.array(z.looseObject({ version: z.string().min(1), file: z.string().min(1), keptAtMs: z.number() })),
});

/** How many versions' installers stay on disk (they are 100+ MB each). */
export const KEPT_VERSIONS = 2;

export class KeptInstallersError extends Error {
  constructor(file: string, why: string) {
    super(`${file} cannot be read (${why}); it was left as it is`);
    this.name = 'KeptInstallersError';
  }
}

export function keptInstallers(dir: string, now: () => number) {
  const listFile = join(dir, 'kept.json');

  async function read(): Promise<KeptInstaller[]> {
    let text: string;
    try {
      text = await readFile(listFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new KeptInstallersError(listFile, `not JSON: ${(error as Error).message}`);
    }
    const decoded = keptListSchema.safeParse(parsed);
    if (!decoded.success) {
      const issue = decoded.error.issues[0];
      throw new KeptInstallersError(listFile, `${issue?.path.join('.') || 'the file'}: ${issue?.message}`);
    }
    return decoded.data.installers;
  }

  return {
    list: read,

    /**
     * Copies a downloaded installer in (to a temporary name first, so a full disk never leaves a
     * half copy that looks kept), records it, and removes what falls out of the newest two.
     */
    async keep(version: string, downloadedFile: string): Promise<KeptInstaller> {
      const before = await read();
      const folder = join(dir, version);
      await mkdir(folder, { recursive: true });
      const file = join(folder, basename(downloadedFile));
      const partial = `${file}.partial`;
      await copyFile(downloadedFile, partial);
      await rename(partial, file);
      const kept: KeptInstaller = { version, file, keptAtMs: now() };
      const installers = [...before.filter((entry) => entry.version !== version), kept].slice(-KEPT_VERSIONS);
      await writeFileAtomic(listFile, `${JSON.stringify({ version: 1, installers } satisfies KeptList, null, 2)}\n`);
      for (const dropped of before.filter((entry) => !installers.some((k) => k.version === entry.version)))
        await rm(join(dir, dropped.version), { recursive: true, force: true });
      return kept;
    },

    /** The newest kept installer of a version other than the one running, when its file is still there. */
    async previous(runningVersion: string): Promise<KeptInstaller | undefined> {
      const candidates = (await read()).filter((entry) => entry.version !== runningVersion).reverse();
      for (const entry of candidates) {
        if (
          await stat(entry.file).then(
            (s) => s.isFile(),
            () => false,
          )
        )
          return entry;
      }
      return undefined;
    },
  };
}

export type KeptInstallers = ReturnType<typeof keptInstallers>;
