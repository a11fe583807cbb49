import { z } from 'zod';

/**
 * `gateway.openaiApi`: the OpenAI-compatible HTTP API on the gateway's port (docs/API.md).
 * Off by default: turning it on lets any holder of a token with `operator.write` run turns
 * over plain HTTP, which a user should choose.
 */
export const openAiApiConfigSchema = z
  .object({ enabled: z.boolean().default(false) })
  .strict()
  .default({ enabled: false });

export type OpenAiApiConfig = z.infer<typeof openAiApiConfigSchema>;
