import { arrayOf, halves, sse, textOf, type WireFormat } from './wire-format.js';

/** OpenAI Responses API SSE (`/responses`). */
export const openAiResponsesWire: WireFormat = {
  provider: 'openai-responses',
  contentType: 'text/event-stream',
  modelOf: (body) => String(body.model ?? ''),
  promptOf: (body) => ({ instructions: body.instructions, input: body.input, tools: body.tools }),
  lastUserText(body) {
    const users = arrayOf(body.input).filter((m) => m.role === 'user');
    return textOf(users.at(-1)?.content);
  },
  toolResultCount: (body) => arrayOf(body.input).filter((m) => m.type === 'function_call_output').length,
  render(reply, model) {
    const messageId = `msg_${reply.responseId}`;
    let seq = 0;
    const event = (data: Record<string, unknown>) => sse({ ...data, sequence_number: seq++ }, String(data.type));
    const head = [
      event({
        type: 'response.created',
        response: { id: reply.responseId, created_at: reply.created, model, status: 'in_progress' },
      }),
    ];
    const body: string[] = [];
    const tail: string[] = [];
    let outputIndex = 0;
    if (reply.textChunks.length > 0 || reply.toolCalls.length === 0) {
      const index = outputIndex++;
      const item = { type: 'message', id: messageId, role: 'assistant', status: 'in_progress', content: [] };
      head.push(event({ type: 'response.output_item.added', output_index: index, item }));
      for (const delta of reply.textChunks) {
        body.push(
          event({
            type: 'response.output_text.delta',
            item_id: messageId,
            output_index: index,
            content_index: 0,
            delta,
          }),
        );
      }
      tail.push(
        event({ type: 'response.output_item.done', output_index: index, item: { ...item, status: 'completed' } }),
      );
    }
    for (const call of reply.toolCalls) {
      const index = outputIndex++;
      const item = { type: 'function_call', id: `fc_${call.id}`, call_id: call.id, name: call.name, arguments: '' };
      body.push(
        event({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress' } }),
      );
      for (const delta of halves(call.args)) {
        body.push(
          event({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta }),
        );
      }
      body.push(
        event({
          type: 'response.output_item.done',
          output_index: index,
          item: { ...item, arguments: call.args, status: 'completed' },
        }),
      );
    }
    tail.push(
      event({
        type: 'response.completed',
        response: {
          id: reply.responseId,
          status: 'completed',
          incomplete_details: null,
          usage: {
            input_tokens: reply.usage.input,
            input_tokens_details: { cached_tokens: reply.usage.cached },
            output_tokens: reply.usage.output,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: reply.usage.input + reply.usage.output,
          },
        },
      }),
    );
    return { head, body, tail };
  },
};
