import { decodeSetupCode, type SetupCode } from '../../../src-main/protocol/setup-code.js';

/**
 * `#pair=<code>` from the QR's https link: returns the code and strips it from the address
 * bar at once, so it is not bookmarked, synced or shared (it is single use anyway).
 */
export function takePairCode(source: { hash: string; clearHash(): void }): string | undefined {
  const params = new URLSearchParams(source.hash.replace(/^#/, ''));
  const code = params.get('pair')?.trim();
  if (params.has('pair')) source.clearHash();
  return code || undefined;
}

/**
 * What the user pasted or scanned: the bare code, a `hearth://pair?code=…` link, or the
 * https link with `#pair=`. Throws SetupCodeError naming what is wrong.
 */
export function readPairInput(text: string, now?: number): SetupCode {
  const trimmed = text.trim();
  const hashAt = trimmed.indexOf('#');
  if (/^https?:\/\//i.test(trimmed) && hashAt >= 0) {
    const fromHash = takePairCode({ hash: trimmed.slice(hashAt), clearHash: () => {} });
    if (fromHash) return decodeSetupCode(fromHash, now);
  }
  return decodeSetupCode(trimmed, now);
}

/** The first 4 and last 4 hex digits of the device id, grouped: easy to compare with the desktop. */
export function shortDeviceId(deviceId: string): string {
  return deviceId.length > 8 ? `${deviceId.slice(0, 4)}…${deviceId.slice(-4)}` : deviceId;
}
