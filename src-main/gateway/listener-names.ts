import { networkInterfaces, hostname as osHostname } from 'node:os';

/**
 * The names a listener answers to: what a browser may put in `Host` when it really
 * talks to us. A DNS-rebound page (evil.example resolving to 127.0.0.1) sends its own
 * name, so anything not on this list is refused with 421 before a route runs, on every
 * route and on the WebSocket upgrade. See docs/SECURITY.md "Host names".
 */
export interface ListenerNames {
  /** True when `host` (a raw Host header) names this listener: one of its names, and its port. */
  allows(host: string | undefined): boolean;
}

export interface ListenerNamesInput {
  /** The address the listener is bound to (127.0.0.1, ::1, 0.0.0.0, a LAN address…). */
  bindHost: string;
  /** The port actually listened on (after port 0 was resolved); read at each request. */
  port: () => number;
  tls: boolean;
  /** Extra names the person configured (gateway.tls.hostnames: DNS names or addresses). */
  hostnames?: readonly string[];
  /** The machine's interface addresses; injectable for tests. */
  interfaceAddresses?: () => string[];
  /** The machine's own host name; injectable for tests. */
  machineName?: () => string;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '';
}

function isLoopbackLiteral(name: string): boolean {
  if (name === '::1' || name === '::ffff:127.0.0.1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

function systemInterfaceAddresses(): string[] {
  const out: string[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) out.push(entry.address);
  }
  return out;
}

/** Lower case, no trailing dot, IPv6 without brackets and zone: how names are compared. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/\.$/, '').replace(/%.*$/, '');
}

/**
 * Splits a Host header into name and port the way RFC 9110 writes it: `name[:port]` or
 * `[v6][:port]`. Returns undefined for anything else (spaces, userinfo, several colons
 * outside brackets, a port that is not a number).
 */
export function parseHostHeader(host: string): { name: string; port?: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+(?:%[\w.~-]+)?)\]|([A-Za-z0-9._~-]+))(?::(\d{1,5}))?$/.exec(host.trim());
  if (!match) return undefined;
  const port = match[3] === undefined ? undefined : Number(match[3]);
  if (port !== undefined && port > 65_535) return undefined;
  return { name: normalise(match[1] ?? match[2] ?? ''), port };
}

export function createListenerNames(input: ListenerNamesInput): ListenerNames {
  const interfaceAddresses = input.interfaceAddresses ?? systemInterfaceAddresses;
  const machineName = input.machineName ?? osHostname;
  const bind = normalise(input.bindHost);
  const wildcard = isWildcard(bind);
  // The bound address itself (0.0.0.0 too, which reaches this machine): an address literal is
  // never a rebound name.
  const fixed = new Set<string>([...LOOPBACK_NAMES, bind, ...(input.hostnames ?? []).map(normalise)]);
  fixed.delete('');
  const isOwnName = (name: string): boolean => {
    if (fixed.has(name) || isLoopbackLiteral(name)) return true;
    if (!wildcard) return false;
    // Bound to every interface: the machine's addresses (read now: DHCP moves them) and its names.
    const machine = normalise(machineName());
    if (name === machine || name === `${machine}.local`) return true;
    return interfaceAddresses().some((address) => normalise(address) === name);
  };
  return {
    allows(host) {
      if (!host) return false;
      const parsed = parseHostHeader(host);
      if (!parsed) return false;
      const defaultPort = input.tls ? 443 : 80;
      if ((parsed.port ?? defaultPort) !== input.port()) return false;
      return isOwnName(parsed.name);
    },
  };
}
