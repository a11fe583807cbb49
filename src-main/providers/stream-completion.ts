import { type LanguageModel, streamText } from 'ai';

/**
 * One text completion, streamed: some providers (and the test fake) only speak SSE, and a stream
 * lets a caller's first-token timeout apply. No retries; a provider error rejects with itself.
 */
export async function streamCompletion(input: {
  model: LanguageModel;
  system?: string;
  prompt: string;
  maxOutputTokens: number;
  signal?: AbortSignal;
  /** The call's tokens as the provider reported them (memory's query rewrite counts its calls). */
  onUsage?(usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }): void;
}): Promise<string> {
  const result = streamText({
    model: input.model,
    system: input.system,
    prompt: input.prompt,
    maxOutputTokens: input.maxOutputTokens,
    maxRetries: 0,
    abortSignal: input.signal,
    // Errors arrive as stream parts, thrown below; the default handler would only log them.
    onError: () => {},
  });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') text += part.text;
    else if (part.type === 'error') throw part.error instanceof Error ? part.error : new Error(String(part.error));
    else if (part.type === 'finish' && input.onUsage)
      input.onUsage({
        inputTokens: part.totalUsage.inputTokens ?? 0,
        outputTokens: part.totalUsage.outputTokens ?? 0,
        cachedInputTokens: part.totalUsage.inputTokenDetails?.cacheReadTokens ?? part.totalUsage.cachedInputTokens ?? 0,
      });
  }
  return text;
}
