import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';

/** Compares secrets in constant time so response timing leaks nothing about them. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

export function generateToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export function gatewayTokenPath(identityDir: string): string {
  return join(identityDir, 'gateway-token');
}

/**
 * The gateway's shared token: made on first run, kept 0600 under identity/.
 * A file with looser permissions is tightened, not trusted blindly or rewritten.
 */
export async function loadOrCreateGatewayToken(identityDir: string): Promise<{ token: string; created: boolean }> {
  const path = gatewayTokenPath(identityDir);
  await mkdir(identityDir, { recursive: true, mode: 0o700 });
  try {
    const text = (await readFile(path, 'utf8')).trim();
    if (text.length >= 16) {
      const info = await stat(path);
      if ((info.mode & 0o077) !== 0) await chmod(path, 0o600);
      return { token: text, created: false };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = generateToken();
  await writeFileAtomic(path, `${token}\n`, 0o600);
  return { token, created: true };
}
