import { chatMessagesRequest, type WireFormat } from './wire-format.js';

/** Ollama `/api/chat` NDJSON: one JSON object per line, the last with `done: true`. */
export const ollamaWire: WireFormat = {
  provider: 'ollama',
  contentType: 'application/x-ndjson',
  ...chatMessagesRequest,
  render(reply, model) {
    const createdAt = new Date(reply.created * 1000).toISOString();
    const line = (data: Record<string, unknown>) => `${JSON.stringify({ model, created_at: createdAt, ...data })}\n`;
    const body = reply.textChunks.map((content) => line({ message: { role: 'assistant', content }, done: false }));
    if (reply.toolCalls.length > 0) {
      const toolCalls = reply.toolCalls.map((call) => ({
        id: call.id,
        function: { name: call.name, arguments: JSON.parse(call.args) },
      }));
      body.push(line({ message: { role: 'assistant', content: '', tool_calls: toolCalls }, done: false }));
    }
    const tail = [
      line({
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        total_duration: 1,
        prompt_eval_count: reply.usage.input,
        eval_count: reply.usage.output,
      }),
    ];
    return { head: [], body, tail };
  },
};
