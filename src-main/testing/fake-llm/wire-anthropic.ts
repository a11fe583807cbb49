import { arrayOf, halves, sse, textOf, type WireFormat } from './wire-format.js';

/** Anthropic messages SSE (`/v1/messages`). */
export const anthropicWire: WireFormat = {
  provider: 'anthropic',
  contentType: 'text/event-stream',
  modelOf: (body) => String(body.model ?? ''),
  promptOf: (body) => ({ system: body.system, messages: body.messages, tools: body.tools }),
  lastUserText(body) {
    const users = arrayOf(body.messages).filter(
      (m) => m.role === 'user' && !arrayOf(m.content).some((part) => part.type === 'tool_result'),
    );
    return textOf(users.at(-1)?.content);
  },
  toolResultCount: (body) =>
    arrayOf(body.messages)
      .flatMap((m) => arrayOf(m.content))
      .filter((part) => part.type === 'tool_result').length,
  render(reply, model) {
    const event = (data: Record<string, unknown>) => sse(data, String(data.type));
    const head = [
      event({
        type: 'message_start',
        message: {
          id: reply.responseId,
          type: 'message',
          role: 'assistant',
          content: [],
          model,
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: reply.usage.input - reply.usage.cached,
            output_tokens: 1,
            cache_read_input_tokens: reply.usage.cached,
            cache_creation_input_tokens: 0,
          },
        },
      }),
    ];
    const body: string[] = [];
    const tail: string[] = [];
    let index = 0;
    if (reply.textChunks.length > 0) {
      const block = index++;
      head.push(event({ type: 'content_block_start', index: block, content_block: { type: 'text', text: '' } }));
      for (const text of reply.textChunks) {
        body.push(event({ type: 'content_block_delta', index: block, delta: { type: 'text_delta', text } }));
      }
      body.push(event({ type: 'content_block_stop', index: block }));
    }
    for (const call of reply.toolCalls) {
      const block = index++;
      body.push(
        event({
          type: 'content_block_start',
          index: block,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        }),
      );
      for (const partial of halves(call.args)) {
        body.push(
          event({
            type: 'content_block_delta',
            index: block,
            delta: { type: 'input_json_delta', partial_json: partial },
          }),
        );
      }
      body.push(event({ type: 'content_block_stop', index: block }));
    }
    tail.push(
      event({
        type: 'message_delta',
        delta: { stop_reason: reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: reply.usage.output },
      }),
      event({ type: 'message_stop' }),
    );
    return { head, body, tail };
  },
};
