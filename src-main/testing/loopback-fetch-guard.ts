/**
 * Test support (never shipped): tests stay on loopback. A test host runs in the test's own
 * process and its providers, probes and channels call the global fetch, so a fixture naming a
 * real provider (api.anthropic.com, openrouter.ai…) would send a fixture key to a real service
 * and make the test depend on the network. While a guard is held, the global fetch refuses any
 * URL that is not loopback — before any DNS lookup or connection — and records it, so a spec can
 * assert that nothing tried to leave, or that the refusal shows where a probe is expected.
 */

export interface LoopbackFetchGuard {
  /** Every URL refused while this guard was held, in order. */
  readonly refused: readonly string[];
  /** Stops recording; the last guard released puts the original fetch back. */
  release(): void;
}

/** The refusal's text, so a spec can match it in what the UI shows. */
export const refusalText = (url: string) => `test host refused a request to ${url}: tests stay on loopback`;

export class LoopbackOnlyError extends TypeError {
  constructor(readonly url: string) {
    super(refusalText(url));
    this.name = 'LoopbackOnlyError';
  }
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost names; anything else is off the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const v4 = host.replace(/^::ffff:/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

const held = new Set<string[]>();
let original: typeof globalThis.fetch | undefined;
let installed: typeof globalThis.fetch | undefined;

/**
 * The guarded fetch. Code that captured it (the host passes `fetch` by value at start) keeps
 * refusing after the guards are released: a host outliving its guard still stays on loopback.
 */
function guardedFetch(underlying: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const href = urlOf(input);
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      // Not absolute: let fetch itself say why.
      return underlying(input, init);
    }
    // data: and blob: never leave the process.
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !isLoopbackHost(url.hostname)) {
      for (const refused of held) refused.push(href);
      return Promise.reject(new LoopbackOnlyError(href));
    }
    return underlying(input, init);
  };
}

/** Holds the guard until `release()`: the global fetch refuses non-loopback URLs and records them. */
export function holdLoopbackFetchGuard(): LoopbackFetchGuard {
  if (!original) {
    original = globalThis.fetch;
    installed = guardedFetch(original);
    globalThis.fetch = installed;
  }
  const refused: string[] = [];
  held.add(refused);
  return {
    refused,
    release() {
      if (!held.delete(refused)) return;
      if (held.size > 0 || !original) return;
      // A test that stubbed fetch over the guard keeps its stub.
      if (globalThis.fetch === installed) globalThis.fetch = original;
      original = undefined;
      installed = undefined;
    },
  };
}
