import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';

export interface TlsIdentity {
  cert: string;
  key: string;
  /** SHA-256 of the leaf certificate DER, colon-separated upper-case hex (Node's fingerprint256). */
  fingerprint256: string;
  notAfter: string;
}

/** Normalises a pin: 64 hex digits, with or without colons or a `sha256:` prefix, any case. */
export function normaliseFingerprint(pin: string): string | undefined {
  const hex = pin
    .trim()
    .replace(/^sha256:/i, '')
    .replace(/:/g, '')
    .toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
}

export function fingerprintOf(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

/**
 * The gateway's self-signed certificate, made once and kept under identity/ (key 0600).
 * Clients pin its SHA-256 fingerprint instead of trusting a CA, so it must stay the
 * same across restarts: it is regenerated only when missing or expired.
 */
export async function loadOrCreateTlsIdentity(
  identityDir: string,
  hostnames: string[],
  now = new Date(),
): Promise<TlsIdentity> {
  await mkdir(identityDir, { recursive: true, mode: 0o700 });
  const certPath = join(identityDir, 'tls-cert.pem');
  const keyPath = join(identityDir, 'tls-key.pem');
  try {
    const [cert, key] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
    const x509 = new X509Certificate(cert);
    if (new Date(x509.validTo).getTime() > now.getTime() + 24 * 3600_000) {
      return { cert, key, fingerprint256: x509.fingerprint256, notAfter: x509.validTo };
    }
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code !== 'ENOENT' &&
      !(error instanceof Error && /certificate|PEM|asn1/i.test(error.message))
    )
      throw error;
  }
  const altNames = [...new Set(['localhost', ...hostnames])].map((name) =>
    /^[\d.]+$/.test(name) || name.includes(':') ? { type: 7 as const, ip: name } : { type: 2 as const, value: name },
  );
  if (!altNames.some((entry) => 'ip' in entry && entry.ip === '127.0.0.1')) altNames.push({ type: 7, ip: '127.0.0.1' });
  // Loaded only when a certificate must be made: most starts never need it.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'Hearth gateway' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + 825 * 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  await writeFileAtomic(keyPath, pems.private, 0o600);
  await writeFileAtomic(certPath, pems.cert, 0o644);
  const x509 = new X509Certificate(pems.cert);
  return { cert: pems.cert, key: pems.private, fingerprint256: x509.fingerprint256, notAfter: x509.validTo };
}
