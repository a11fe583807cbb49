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
}

export const modelsMethods = {
  'models.list': method<ModelsListResult>()({
    scope: 'operator.read',
    params: z.object({ provider: z.string().min(1).optional() }).strict(),
  }),
};
