import { arrayOf, sse, textOf, type WireFormat } from './wire-format.js';

/** Gemini `models/{model}:streamGenerateContent?alt=sse`. */
export const geminiWire: WireFormat = {
  provider: 'google',
  contentType: 'text/event-stream',
  modelOf: (_body, path) => /models\/([^:/]+):/.exec(path)?.[1] ?? '',
  promptOf: (body) => ({ systemInstruction: body.systemInstruction, contents: body.contents, tools: body.tools }),
  lastUserText(body) {
    const users = arrayOf(body.contents).filter(
      (c) => c.role === 'user' && arrayOf(c.parts).some((part) => typeof part.text === 'string'),
    );
    return textOf(users.at(-1)?.parts);
  },
  toolResultCount: (body) =>
    arrayOf(body.contents)
      .flatMap((c) => arrayOf(c.parts))
      .filter((part) => part.functionResponse).length,
  render(reply, model) {
    const usageMetadata = {
      promptTokenCount: reply.usage.input,
      candidatesTokenCount: reply.usage.output,
      totalTokenCount: reply.usage.input + reply.usage.output,
      cachedContentTokenCount: reply.usage.cached,
    };
    const chunk = (parts: unknown[], finishReason?: string) =>
      sse({
        candidates: [{ content: { parts, role: 'model' }, index: 0, ...(finishReason ? { finishReason } : {}) }],
        usageMetadata,
        modelVersion: model,
        responseId: reply.responseId,
      });
    const body = reply.textChunks.map((text) => chunk([{ text }]));
    // Gemini sends each function call whole, parallel calls as parts of one chunk.
    const calls = reply.toolCalls.map((call) => ({ functionCall: { name: call.name, args: JSON.parse(call.args) } }));
    return { head: [], body, tail: [chunk(calls.length > 0 ? calls : [{ text: '' }], 'STOP')] };
  },
};
