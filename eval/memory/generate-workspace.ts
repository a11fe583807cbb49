// Writes eval/memory/workspace/ from story.ts (run: npx tsx eval/memory/generate-workspace.ts).
// The output is committed, so the evaluation reads plain markdown like a user's workspace.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CHINESE_DAYS,
  FIRST_DAY,
  fillerNotes,
  KEY_NOTES,
  LAST_DAY,
  MEMORY_MD,
  SKIPPED_DAYS,
  seededRandom,
  UPDATES,
  USER_MD,
} from './story.js';

const here = dirname(fileURLToPath(import.meta.url));
export const WORKSPACE_DIR = join(here, 'workspace');

function* days(from: string, to: string): Generator<string> {
  for (let at = Date.parse(`${from}T12:00:00Z`); at <= Date.parse(`${to}T12:00:00Z`); at += 86_400_000)
    yield new Date(at).toISOString().slice(0, 10);
}

/** One day's file: key notes and routine notes under their headings, in time order. */
export function dayFile(date: string): string | undefined {
  const key = [...(KEY_NOTES[date] ?? []), ...(UPDATES[date] ?? [])];
  if (SKIPPED_DAYS.has(date) && key.length === 0) return undefined;
  const chinese = CHINESE_DAYS.has(date);
  const random = seededRandom(Number(date.replaceAll('-', '')) * 7);
  const sections = new Map<string, string[]>();
  const add = (heading: string, line: string) => {
    const lines = sections.get(heading) ?? [];
    lines.push(line);
    sections.set(heading, lines);
  };
  for (const [heading, line] of key) add(heading, line);
  const workHeading = chinese ? '工作' : 'Work';
  const lifeHeading = chinese ? '生活' : 'Life';
  fillerNotes(date, chinese, 3 + Math.floor(random() * 4)).forEach((text, index) => {
    const hour = 8 + Math.floor(random() * 14);
    const minute = Math.floor(random() * 60);
    const stamp = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
    add(index % 2 === 0 && !chinese ? workHeading : lifeHeading, `- ${stamp} ${text}`);
  });
  const time = (line: string) => /^- (\d\d:\d\d)/.exec(line)?.[1] ?? '99:99';
  const out = [`# ${date}`, ''];
  for (const heading of [workHeading, lifeHeading, ...sections.keys()]) {
    const lines = sections.get(heading);
    if (!lines) continue;
    sections.delete(heading);
    out.push(`## ${heading}`, '', ...lines.sort((a, b) => time(a).localeCompare(time(b))), '');
  }
  return out.join('\n');
}

export async function generateWorkspace(dir = WORKSPACE_DIR): Promise<number> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'memory'), { recursive: true });
  await writeFile(join(dir, 'MEMORY.md'), MEMORY_MD);
  await writeFile(join(dir, 'USER.md'), USER_MD);
  let files = 0;
  for (const date of days(FIRST_DAY, LAST_DAY)) {
    const text = dayFile(date);
    if (!text) continue;
    await writeFile(join(dir, 'memory', `${date}.md`), text);
    files++;
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await generateWorkspace();
  console.log(`wrote ${files} daily files, MEMORY.md and USER.md to ${WORKSPACE_DIR}`);
}
