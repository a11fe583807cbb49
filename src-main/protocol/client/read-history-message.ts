import { z } from 'zod';
import type { ChatHistoryMessage } from '../methods/chat.js';

// `chat.history` messages come from this gateway (ChatHistoryMessage: `kind`, `role`, `content`
// parts), from older Hearths (the transcript entry itself: `text`, `output`, `attachments`, no
// `content`) and from OpenClaw-style senders (`role` + `content`, no `kind`, no id). One reader
// turns them all into one typed message, so the chat store reads fields, not loose JSON.

/** A history message as a client shows it. */
export interface HistoryMessage
  extends Pick<ChatHistoryMessage, 'toolCallId' | 'toolName' | 'input' | 'model' | 'isError'> {
  /** Absent when the sender gave none (such a message cannot be forked from). */
  id?: string;
  ts?: number;
  /** `kind`, else the OpenClaw `role`: user | assistant | tool_call | tool_result | tool | notification | … */
  kind: string;
  /** What the message says: its `text`, else its text parts joined. */
  text: string;
  /** Tool results: the output, else the text parts, else the result as JSON. */
  output: string;
  attachments: { name: string; mediaType: string }[];
}

const text = z.string().optional().catch(undefined);

/** OpenClaw's content: a string, or parts of which the `text` ones are read. */
const content = z
  .unknown()
  .optional()
  .transform((value) =>
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((part) => textPart.safeParse(part).data?.text ?? '').join('')
        : '',
  );
const textPart = z.object({ type: z.literal('text'), text: z.string() });

const attachments = z
  .array(z.unknown())
  .catch([])
  .transform((items) =>
    items.map((item) => {
      const attachment = z.object({ name: text, mediaType: text }).safeParse(item).data;
      return { name: attachment?.name ?? 'attachment', mediaType: attachment?.mediaType ?? '' };
    }),
  );

const received = z.object({
  id: z
    .union([z.string(), z.number().transform(String)])
    .optional()
    .catch(undefined),
  ts: z.number().finite().optional().catch(undefined),
  timestamp: z.number().finite().optional().catch(undefined),
  kind: text,
  role: text,
  text,
  output: text,
  result: z.unknown().optional(),
  content,
  toolCallId: text,
  toolName: text,
  input: z.unknown().optional(),
  model: text,
  isError: z.boolean().optional().catch(undefined),
  attachments,
});

/** One `chat.history` message in any of the three shapes; `undefined` when it names neither kind nor role. */
export function readHistoryMessage(value: unknown): HistoryMessage | undefined {
  const parsed = received.safeParse(value);
  if (!parsed.success) return undefined;
  const m = parsed.data;
  const kind = m.kind ?? m.role;
  if (!kind) return undefined;
  const said = m.text || m.content;
  const ts = m.ts ?? m.timestamp;
  return {
    ...(m.id ? { id: m.id } : {}),
    ...(ts !== undefined ? { ts } : {}),
    kind,
    text: said,
    output: m.output || m.content || JSON.stringify(m.result ?? ''),
    attachments: m.attachments,
    ...(m.toolCallId !== undefined ? { toolCallId: m.toolCallId } : {}),
    ...(m.toolName !== undefined ? { toolName: m.toolName } : {}),
    ...(m.input !== undefined ? { input: m.input } : {}),
    ...(m.model !== undefined ? { model: m.model } : {}),
    ...(m.isError !== undefined ? { isError: m.isError } : {}),
  };
}
