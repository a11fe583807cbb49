import type { FakeProvider } from './scenario.js';

/** A successful reply reduced to what every wire format can say. */
export interface RenderedReply {
  textChunks: string[];
  toolCalls: { id: string; name: string; args: string }[];
  usage: { input: number; output: number; cached: number };
  /** Unix seconds, fixed per response. */
  created: number;
  responseId: string;
}

/** Frames of a streamed response: `body` holds one frame per text chunk so a stream can be cut midway. */
export interface RenderedFrames {
  head: string[];
  body: string[];
  tail: string[];
}

/** One provider's dialect: how to read its request and how to stream a reply back. */
export interface WireFormat {
  provider: FakeProvider;
  contentType: string;
  modelOf(body: Record<string, unknown>, path: string): string;
  /** What prompt tokens are counted over: messages (with system) + tools. */
  promptOf(body: Record<string, unknown>): unknown;
  lastUserText(body: Record<string, unknown>): string;
  toolResultCount(body: Record<string, unknown>): number;
  render(reply: RenderedReply, model: string): RenderedFrames;
}

export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** Text from a content value that is a string or an array of typed parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

export function arrayOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as Record<string, unknown>[]) : [];
}

/** Splits a JSON argument string in two, as providers stream arguments in pieces. */
export function halves(text: string): string[] {
  const cut = Math.ceil(text.length / 2);
  return [text.slice(0, cut), text.slice(cut)].filter((piece) => piece.length > 0);
}

/** How a request with a `messages` array (OpenAI chat, Ollama) is read: model, prompt, last user text, tool results. */
export const chatMessagesRequest: Pick<WireFormat, 'modelOf' | 'promptOf' | 'lastUserText' | 'toolResultCount'> = {
  modelOf: (body) => String(body.model ?? ''),
  promptOf: (body) => ({ messages: body.messages, tools: body.tools }),
  lastUserText(body) {
    const users = arrayOf(body.messages).filter((m) => m.role === 'user');
    return textOf(users.at(-1)?.content);
  },
  toolResultCount: (body) => arrayOf(body.messages).filter((m) => m.role === 'tool').length,
};
