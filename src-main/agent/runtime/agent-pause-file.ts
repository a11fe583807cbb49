import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../base/index.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { PauseSaving, PauseState } from './agent-pause.js';

/**
 * `state/agent-pause.json`: "Pause agent" outlives a restart. A person who paused Hearth before
 * a reboot (or an update) expects it still paused after, not the heartbeat, cron and channels
 * answering again on their own.
 */
export const agentPausePath = (stateDir: string) => join(stateDir, 'agent-pause.json');

interface SavedPause {
  version: 1;
  paused: boolean;
  since?: number;
  reason?: string;
}

// Typed by the interface it decodes, so a field added without its schema breaks the build.
const savedPauseSchema: z.ZodType<SavedPause> = z.looseObject({
  version: z.literal(1),
  paused: z.boolean(),
  since: z.number().optional(),
  reason: z.string().optional(),
});

function unreadable(file: string, why: string): PauseState {
  return {
    paused: true,
    problem: `${file} cannot be read (${why}); it was left as it is, and Hearth started paused to be safe: fix or remove it, or resume to replace it`,
  };
}

/**
 * The saved pause. Missing is running (a first start). A file that is there but does not decode
 * is not guessed to be "running": the agent starts paused with `problem` naming the file and the
 * field, and the file is not rewritten until the person pauses or resumes.
 */
export async function readSavedPause(file: string): Promise<PauseState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { paused: false };
    return unreadable(file, (error as Error).message);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text; the reason a person needs is only that it is not JSON.
    return unreadable(file, 'not JSON');
  }
  const parsed = savedPauseSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return unreadable(file, `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
  }
  const saved = parsed.data;
  if (!saved.paused) return { paused: false };
  return {
    paused: true,
    ...(saved.since !== undefined ? { since: saved.since } : {}),
    ...(saved.reason ? { reason: saved.reason } : {}),
  };
}

/** Reads the saved pause (saying so in the log when it is damaged) and saves every change atomically. */
export async function pauseSavingAt(file: string, log: Pick<Logger, 'error'>): Promise<PauseSaving> {
  const initial = await readSavedPause(file);
  if (initial.problem) log.error('saved agent pause is damaged; starting paused', { file, problem: initial.problem });
  return {
    initial,
    save: async (state) => {
      const saved: SavedPause = {
        version: 1,
        paused: state.paused,
        ...(state.since !== undefined ? { since: state.since } : {}),
        ...(state.reason ? { reason: state.reason } : {}),
      };
      await writeFileAtomic(file, `${JSON.stringify(saved, null, 2)}\n`);
    },
  };
}
