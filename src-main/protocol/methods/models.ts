import { z } from 'zod';
import { method } from './define.js';

export interface ModelRow {
  /** `provider/model` */
  id: string;
  name: string;
  provider: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** A usable credential exists (or none is needed). */
  available: boolean;
}

export interface ModelsListResult {
  models: ModelRow[];
  /** agents.defaults.model */
  primary?: string;
  fallbacks: string[];
  /** With `provider: "ollama"`: whether an Ollama server answers on this machine, and its models (no key needed). */
  local?: { ollama: { available: boolean; models: string[]; baseURL?: string; reason?: string } };
}

export const modelsMethods = {
  'models.list': method<ModelsListResult>()({
    scope: 'operator.read',
    params: z.object({ provider: z.string().min(1).optional() }).strict(),
  }),
};
