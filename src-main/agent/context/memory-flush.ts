import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../base/clock.js';
import type { AgentMessage } from '../messages.js';
import { splitSentences } from './sentences.js';

/**
 * Before compaction forgets the words, durable facts from the span go to the daily memory
 * file, so memory search can still find them. Append only: the file is the user's too.
 */
const DURABLE_PATTERN =
  /\b(?:remember|my (?:favou?rite|name|birthday|email|address|wife|husband|partner|kids?|dog|cat)|i (?:prefer|like|love|hate|always|never|live|work)|call me|from now on|decided|decision|we will|agreed|going with|settled on|deadline)\b|记住|我喜欢|我叫|决定/i;
const MAX_FACT_CHARS = 300;

/** Local-time YYYY-MM-DD from the injected clock (the user's day, not UTC's). */
export function localDateStamp(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function dailyMemoryPath(workspaceDir: string, epochMs: number): string {
  return join(workspaceDir, 'memory', `${localDateStamp(epochMs)}.md`);
}

/** Sentences of user and assistant text that read like things to keep. */
export function extractDurableFacts(messages: readonly AgentMessage[]): string[] {
  const facts: string[] = [];
  const seen = new Set<string>();
  for (const message of messages) {
    if (message.kind !== 'user' && message.kind !== 'assistant') continue;
    for (const sentence of splitSentences(message.text)) {
      const fact = sentence.slice(0, MAX_FACT_CHARS);
      if (fact.length < 6 || !DURABLE_PATTERN.test(fact)) continue;
      const key = fact.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      facts.push(message.kind === 'user' ? `User: ${fact}` : `Assistant: ${fact}`);
    }
  }
  return facts;
}

export interface MemoryFlushResult {
  path: string;
  appended: string[];
}

/** Appends facts not already in today's file; creates the file (and folder) when missing. */
export async function flushDurableFacts(input: {
  /** The folder holding `memory/`: an agent's workspace, or a person's `users/<id>/` in it. */
  workspaceDir: string;
  clock: Clock;
  messages: readonly AgentMessage[];
}): Promise<MemoryFlushResult> {
  const now = input.clock.now();
  const path = dailyMemoryPath(input.workspaceDir, now);
  const facts = extractDurableFacts(input.messages);
  if (facts.length === 0) return { path, appended: [] };
  await mkdir(join(input.workspaceDir, 'memory'), { recursive: true });
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const fresh = facts.filter((fact) => !existing.includes(fact));
  if (fresh.length === 0) return { path, appended: [] };
  const separator = existing.length === 0 || existing.endsWith('\n') ? '' : '\n';
  const heading = existing.length === 0 ? `# ${localDateStamp(now)}\n` : '';
  const block = `${separator}${heading}\n## Saved before compaction\n${fresh.map((f) => `- ${f}`).join('\n')}\n`;
  // appendFile opens with O_APPEND: concurrent writers add, never clobber.
  await appendFile(path, block, 'utf8');
  return { path, appended: fresh };
}
