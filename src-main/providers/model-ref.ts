import { HearthError } from '../base/errors.js';
/** A model reference as users write it: `provider/model` (the model part may itself contain `/`, as on OpenRouter). */
export interface ModelRef {
  provider: string;
  model: string;
}

export class ModelRefError extends HearthError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'ModelRefError';
  }
}

export function parseModelRef(ref: string): ModelRef {
  if (typeof ref !== 'string') throw new ModelRefError(`model reference must be a string, got ${typeof ref}`);
  const trimmed = ref.trim();
  const slash = trimmed.indexOf('/');
  if (slash <= 0 || slash === trimmed.length - 1) {
    throw new ModelRefError(`invalid model reference "${ref}": expected "provider/model", e.g. "openai/gpt-4o"`);
  }
  return { provider: trimmed.slice(0, slash), model: trimmed.slice(slash + 1) };
}

export function formatModelRef(ref: ModelRef): string {
  return `${ref.provider}/${ref.model}`;
}
