import { z } from 'zod';

/** `tools.web` in hearth.json. */
export const webToolsConfigSchema = z
  .object({
    /** Reach private, loopback and link-local addresses too (a home lab). Off: SSRF protection. */
    allowPrivateNetwork: z.boolean().default(false),
    /** Private hosts allowed anyway: names (`nas.local`), IPs, or IPv4 CIDRs (`192.168.1.0/24`). */
    allowHosts: z.array(z.string().min(1)).default([]),
    /** Bytes read of one response (after decompression); a larger declared body is refused. */
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(2 * 1024 * 1024),
    /** Characters of markdown handed to the model. */
    maxChars: z.number().int().positive().default(50_000),
    timeoutMs: z.number().int().positive().default(20_000),
    maxRedirects: z.number().int().min(0).max(20).default(5),
  })
  .strict();

export type WebToolsConfig = z.infer<typeof webToolsConfigSchema>;
