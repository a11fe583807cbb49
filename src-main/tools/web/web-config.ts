import { z } from 'zod';

/** The default secret store entry of the Brave key: the auth profile `hearth auth set brave-search` makes. */
export const BRAVE_DEFAULT_SECRET = 'auth-profile:brave-search';

/** `tools.web.search`: the engine behind `web_search`. Absent: agents have no web_search at all. */
export const webSearchConfigSchema = z
  .object({
    provider: z.enum(['brave', 'searxng'], { error: 'provider must be "brave" or "searxng"' }),
    /** Brave: the API base (default https://api.search.brave.com). SearXNG: the instance, required. */
    url: z.url({ error: 'url must be an http:// or https:// URL' }).optional(),
    /**
     * The secret store entry holding the API key (never the key itself: hearth.json is not a
     * vault). Brave: default `auth-profile:brave-search`. SearXNG: none unless the instance wants one.
     */
    apiKeySecret: z.string().min(1, 'apiKeySecret: name the secret store entry').optional(),
  })
  .strict()
  .superRefine((search, context) => {
    if (search.provider === 'searxng' && !search.url)
      context.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'SearXNG needs the instance URL, e.g. "url": "http://nas.local:8888"',
      });
  });

export type WebSearchConfig = z.infer<typeof webSearchConfigSchema>;

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
    search: webSearchConfigSchema.optional(),
  })
  .strict();

export type WebToolsConfig = z.infer<typeof webToolsConfigSchema>;
