import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { shouldCapture } from '../capture.js';
import type { MemoryEngine } from '../memory-engine.js';
import { dailyPath, localDate } from '../memory-files.js';
import type { MemoryScope } from '../memory-scope.js';
import { noteBody } from '../note-lines.js';
import { redactSecrets } from '../redact-secrets.js';
import { noteKey } from './dream-signals.js';

export interface TranscriptMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string;
}

/**
 * Dreaming's fourth way in: notable user messages from recent transcripts that live capture
 * missed. Same filter as capture, secrets redacted, and nothing already in today's file twice.
 */
export async function ingestTranscripts(
  engine: MemoryEngine,
  scope: MemoryScope,
  messages: TranscriptMessage[],
  now: number,
): Promise<{ added: number; redacted: number }> {
  const path = join(engine.workspaceDir, dailyPath(scope, localDate(now)));
  const existing = await readFile(path, 'utf8').catch(() => '');
  const seen = new Set(existing.split('\n').map((line) => noteKey(noteBody(line))));
  let added = 0;
  let redacted = 0;
  for (const message of messages) {
    const decision = shouldCapture({
      text: message.text,
      role: message.role,
      maxChars: engine.config.capture.maxChars,
    });
    if (!decision.capture) continue;
    const clean = redactSecrets(decision.text);
    redacted += clean.redacted.length;
    const key = noteKey(clean.text);
    if (seen.has(key)) continue;
    seen.add(key);
    await engine.appendDaily(scope, clean.text, { category: decision.category });
    added++;
  }
  return { added, redacted };
}
