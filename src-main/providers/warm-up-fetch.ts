// The first streamed call in a process pays for the SDK's lazy set-up (schemas, parsers, JIT),
// several hundred ms. A start-up warm-up runs one call per provider kind against these canned,
// in-process responses (no network, no credential), so the user's first turn does not pay it.

const sse = (events: unknown[], named = false) =>
  events
    .map((event) => {
      const type = (event as { type?: string }).type;
      return `${named && type ? `event: ${type}\n` : ''}data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`;
    })
    .join('');

const usage = { input_tokens: 1, output_tokens: 1 };

const bodies: Record<string, { contentType: string; body: string }> = {
  openai: {
    contentType: 'text/event-stream',
    body: sse([
      {
        id: 'w',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'w',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      },
      {
        id: 'w',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'w',
        choices: [],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
      '[DONE]',
    ]),
  },
  'openai-responses': {
    contentType: 'text/event-stream',
    body: sse(
      [
        { type: 'response.created', response: { id: 'w', created_at: 0, model: 'w' } },
        { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'm' } },
        { type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'ok' },
        { type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: 'm' } },
        {
          type: 'response.completed',
          response: { usage: { ...usage, input_tokens_details: {}, output_tokens_details: {} } },
        },
      ],
      true,
    ),
  },
  anthropic: {
    contentType: 'text/event-stream',
    body: sse(
      [
        {
          type: 'message_start',
          message: { id: 'w', type: 'message', role: 'assistant', content: [], model: 'w', usage },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
        { type: 'message_stop' },
      ],
      true,
    ),
  },
  google: {
    contentType: 'text/event-stream',
    body: sse([
      {
        candidates: [{ content: { parts: [{ text: 'ok' }], role: 'model' }, index: 0, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      },
    ]),
  },
  ollama: {
    contentType: 'application/x-ndjson',
    body: `${JSON.stringify({
      model: 'w',
      created_at: new Date(0).toISOString(),
      message: { role: 'assistant', content: 'ok' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 1,
      eval_count: 1,
    })}\n`,
  },
};
bodies.azure = bodies.openai as { contentType: string; body: string };
bodies['openai-compatible'] = bodies.openai as { contentType: string; body: string };

/** Provider kinds a warm-up call can be answered for (Bedrock's binary event stream is not canned). */
export const warmUpKinds = Object.keys(bodies);

/** The canned streamed reply in a provider kind's wire format, if one exists. */
export function cannedWarmUpResponse(kind: string): { contentType: string; body: string } | undefined {
  return bodies[kind];
}

/** A fetch that answers any request with a canned streamed reply in the given kind's format. */
export function createWarmUpFetch(kind: string): typeof globalThis.fetch | undefined {
  const canned = bodies[kind];
  if (!canned) return undefined;
  return async () => new Response(canned.body, { status: 200, headers: { 'content-type': canned.contentType } });
}
