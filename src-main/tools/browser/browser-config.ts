import { z } from 'zod';

/** `tools.browser` in hearth.json. Read at each call; the launch keys apply at the next launch. */
export const browserToolsConfigSchema = z
  .object({
    /** The Chromium (or Chrome) to run; else /usr/bin/chromium, chromium-browser or google-chrome, else Playwright's own. */
    executablePath: z.string().min(1).optional(),
    /** Off: a window the person can watch (needs a display). */
    headless: z.boolean().default(true),
    /** Chromium's sandbox. Unset: on, except as root, where Chromium refuses to start with it. */
    sandbox: z.boolean().optional(),
    /** A tab unused this long is closed; the browser closes with its last tab. */
    idleMs: z
      .number()
      .int()
      .positive()
      .default(10 * 60_000),
    /** How long one action (a navigation, a click, a wait) may take. */
    timeoutMs: z.number().int().positive().default(15_000),
    /** Reach private, loopback and link-local addresses too (a home lab). Off: SSRF protection. */
    allowPrivateNetwork: z.boolean().default(false),
    /** Private hosts allowed anyway: names (`nas.local`), IPs, or IPv4 CIDRs (`192.168.1.0/24`). */
    allowHosts: z.array(z.string().min(1)).default([]),
    /** Characters of snapshot or extracted text handed to the model. */
    maxChars: z.number().int().positive().default(20_000),
    /**
     * Click, type and select ask first, once per site per chat (through the approval system):
     * acting on a page can submit, buy or post there. Off: they run without asking.
     */
    askBeforeActing: z.boolean().default(true),
    /** Tabs one agent may have open; opening one more is refused. */
    maxTabs: z.number().int().min(1).max(50).default(8),
  })
  .strict();

export type BrowserToolsConfig = z.infer<typeof browserToolsConfigSchema>;
