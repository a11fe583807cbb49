import type { AgentMessage, Usage } from '../transcript/index.js';
import { epochMs, jsonlRecords, record, text } from './source-files.js';

export interface ConvertedTranscript {
  messages: AgentMessage[];
  header?: { id?: string; timestamp?: number };
  droppedLines: number;
  malformedLines: number;
}

/**
 * An OpenClaw `<sessionId>.jsonl` (pi-agent format) as Hearth messages. Lines are
 * `{type:"session"}` (the header), `{type:"message", message:{role, content[]}}` with roles
 * `user`, `assistant` (text, thinking and `toolCall` blocks) and `toolResult`; model and
 * thinking-level changes and `custom` events have no Hearth counterpart and are dropped.
 * A line that is not JSON is counted, never fatal: the rest of the session still comes over.
 */
export function convertOpenClawTranscript(content: string, idPrefix = 'oc'): ConvertedTranscript {
  const messages: AgentMessage[] = [];
  let header: ConvertedTranscript['header'];
  let droppedLines = 0;
  const { records, malformedLines } = jsonlRecords(content);
  for (const { entry, lineNumber } of records) {
    if (entry.type === 'session') {
      header = { id: text(entry.id), timestamp: epochMs(entry.timestamp) };
      continue;
    }
    const message = entry.type === 'message' ? record(entry.message) : undefined;
    if (!message) {
      droppedLines += 1;
      continue;
    }
    const id = `${idPrefix}-${text(entry.id) ?? lineNumber}`;
    const ts = epochMs(message.timestamp) ?? epochMs(entry.timestamp) ?? header?.timestamp ?? 0;
    const converted = convertMessage(message, id, ts);
    if (converted.length === 0) droppedLines += 1;
    messages.push(...converted);
  }
  return { messages, header, droppedLines, malformedLines };
}

function blocksOf(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.map(record).filter((b): b is Record<string, unknown> => !!b) : [];
}

function textOf(blocks: readonly Record<string, unknown>[]): string {
  return blocks
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n')
    .trim();
}

function usageOf(value: unknown): Usage | undefined {
  const usage = record(value);
  if (!usage) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { inputTokens: n(usage.input), outputTokens: n(usage.output), cachedInputTokens: n(usage.cacheRead) };
}

function convertMessage(message: Record<string, unknown>, id: string, ts: number): AgentMessage[] {
  const blocks = blocksOf(message.content);
  switch (message.role) {
    case 'user': {
      const body = textOf(blocks);
      const images = blocks.filter((block) => block.type === 'image').length;
      const note = images > 0 ? `\n\n[${images} image${images === 1 ? '' : 's'} not imported]` : '';
      return body || note ? [{ kind: 'user', id, ts, text: (body + note).trim() }] : [];
    }
    case 'assistant': {
      const out: AgentMessage[] = [];
      const body = textOf(blocks);
      const provider = text(message.provider);
      const model = text(message.model);
      const usage = usageOf(message.usage);
      if (body) {
        out.push({
          kind: 'assistant',
          id,
          ts,
          text: body,
          ...(model ? { model: provider ? `${provider}/${model}` : model } : {}),
          ...(usage ? { usage } : {}),
          ...(text(message.stopReason) ? { stopReason: message.stopReason as string } : {}),
        });
      }
      blocks
        .filter((block) => block.type === 'toolCall' || block.type === 'tool_use')
        .forEach((block, index) => {
          out.push({
            kind: 'tool_call',
            id: `${id}-call${index}`,
            ts,
            toolCallId: text(block.id) ?? `${id}-call${index}`,
            toolName: text(block.name) ?? 'tool',
            input: block.arguments ?? block.input ?? {},
          });
        });
      return out;
    }
    case 'toolResult':
      return [
        {
          kind: 'tool_result',
          id,
          ts,
          toolCallId: text(message.toolCallId) ?? id,
          toolName: text(message.toolName) ?? 'tool',
          output: textOf(blocks),
          ...(message.isError === true ? { isError: true } : {}),
        },
      ];
    default:
      return [];
  }
}
