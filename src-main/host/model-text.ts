import { streamCompletion } from '../providers/index.js';
import { parseModelRef, type RuntimeServices } from './runtime-model-deps.js';

/**
 * One short completion from a configured model (the smart-approval judge, the Dreams diary,
 * model-based recall), with the
 * same credentials and profile order as chat turns. Streamed, because some providers
 * (and the test fake) only speak SSE; no retries — callers treat any failure as "ask a human".
 */
export async function completeText(
  services: RuntimeServices,
  modelRef: string,
  prompt: string,
  signal: AbortSignal,
  maxOutputTokens = 64,
  onUsage?: (usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }) => void,
): Promise<string> {
  const ref = parseModelRef(modelRef);
  const profile = services.auth.order(ref.provider)[0];
  const credential = profile ? await services.auth.credential(profile) : undefined;
  return streamCompletion({ model: services.models.create(ref, credential), prompt, maxOutputTokens, signal, onUsage });
}
