import { networkInterfaces } from 'node:os';

/** The wss:// URLs a phone can use to reach a listener bound to `host`. */
export function lanUrls(host: string, port: number, interfaces = networkInterfaces()): string[] {
  const format = (address: string) => `wss://${address.includes(':') ? `[${address}]` : address}:${port}`;
  if (host !== '0.0.0.0' && host !== '::') return [format(host)];
  const addresses: string[] = [];
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (!entry.internal && entry.family === 'IPv4') addresses.push(entry.address);
    }
  }
  return addresses.length > 0 ? addresses.map(format) : [format('127.0.0.1')];
}
