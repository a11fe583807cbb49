import { chatMessagesRequest, halves, sse, type WireFormat } from './wire-format.js';

/** OpenAI chat-completions SSE (also what Azure, DeepSeek, OpenRouter and LM Studio speak). */
export const openAiChatWire: WireFormat = {
  provider: 'openai-chat',
  contentType: 'text/event-stream',
  ...chatMessagesRequest,
  render(reply, model) {
    const base = { id: reply.responseId, object: 'chat.completion.chunk', created: reply.created, model };
    const chunk = (delta: unknown, finishReason: string | null = null) =>
      sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
    const body = reply.textChunks.map((text) => chunk({ content: text }));
    reply.toolCalls.forEach((call, index) => {
      body.push(
        chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
      );
      for (const piece of halves(call.args))
        body.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    const usage = {
      prompt_tokens: reply.usage.input,
      completion_tokens: reply.usage.output,
      total_tokens: reply.usage.input + reply.usage.output,
      prompt_tokens_details: { cached_tokens: reply.usage.cached },
    };
    return {
      head: [chunk({ role: 'assistant', content: '' })],
      body,
      tail: [
        chunk({}, reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        sse({ ...base, choices: [], usage }),
        sse('[DONE]'),
      ],
    };
  },
};
