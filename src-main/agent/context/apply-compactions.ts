import type { AgentMessage } from '../messages.js';

/**
 * A transcript is append-only, so a compaction summary is written after the messages it
 * replaces. Reading it back, each summary takes the place of the first message it
 * replaces and the replaced ones drop out — so a restart resumes from the compacted
 * history instead of the raw one, and nothing the summary kept is lost.
 */
export function applyCompactionSummaries(messages: readonly AgentMessage[]): AgentMessage[] {
  const summaries = messages.filter((m) => m.kind === 'compaction_summary');
  if (summaries.length === 0) return [...messages];
  const replacedBy = new Map<string, AgentMessage>();
  for (const summary of summaries) {
    if (summary.kind !== 'compaction_summary') continue;
    for (const id of summary.replaces) replacedBy.set(id, summary);
  }
  const placed = new Set<string>();
  const present = new Set(messages.map((m) => m.id));
  const out: AgentMessage[] = [];
  // A summary whose replaced messages are all outside the loaded window (older) still
  // counts, and it speaks of what came before everything loaded: it goes first.
  for (const s of summaries) {
    if (s.kind !== 'compaction_summary' || replacedBy.has(s.id)) continue;
    if (s.replaces.some((id) => present.has(id))) continue;
    placed.add(s.id);
    out.push(s);
  }
  for (const message of messages) {
    const summary = replacedBy.get(message.id);
    if (summary) {
      // A later summary may replace an earlier one: place only the outermost.
      let outer = summary;
      while (replacedBy.has(outer.id)) outer = replacedBy.get(outer.id)!;
      if (!placed.has(outer.id)) {
        placed.add(outer.id);
        out.push(outer);
      }
      continue;
    }
    if (message.kind === 'compaction_summary') continue;
    out.push(message);
  }
  return out;
}
