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
    params: () =>
      z
        .object({
          provider: z.string().min(1).optional(),
          /**
           * OpenClaw's UI narrows the list by view ("configured"), session and agent. Hearth lists
           * the models of the providers in play for every agent alike, so these are accepted and the
           * answer is the same list.
           */
          view: z.string().min(1).optional(),
          sessionKey: z.string().min(1).optional(),
          agentId: z.string().min(1).optional(),
        })
        .strict(),
  }),
};
