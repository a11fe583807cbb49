export interface OllamaDetectOptions {
  /** The Ollama host root, e.g. http://127.0.0.1:11434 (no /api). */
  baseURL: string;
  fetch: typeof globalThis.fetch;
  /** Short: a missing Ollama must not delay start-up. */
  timeoutMs?: number;
}

export type OllamaDetection =
  | { available: true; baseURL: string; models: string[] }
  | { available: false; reason: string };

export const defaultOllamaHost = 'http://127.0.0.1:11434';

/** Asks a local Ollama for its models (GET /api/tags); offered when no other provider is configured. */
export async function detectOllama(options: OllamaDetectOptions): Promise<OllamaDetection> {
  const root = options.baseURL.replace(/\/+$/, '').replace(/\/api$/, '');
  try {
    const response = await options.fetch(`${root}/api/tags`, { signal: AbortSignal.timeout(options.timeoutMs ?? 500) });
    if (!response.ok) return { available: false, reason: `GET /api/tags answered ${response.status}` };
    const body = (await response.json()) as { models?: { name?: unknown }[] };
    if (!Array.isArray(body.models)) return { available: false, reason: 'GET /api/tags returned no "models" list' };
    const models = body.models.map((m) => m.name).filter((name): name is string => typeof name === 'string');
    return { available: true, baseURL: `${root}/api`, models };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
