import { buildControlUiPolicy, type ControlUiPolicyOptions } from '../protocol/control-ui-policy.js';

export type CspOptions = ControlUiPolicyOptions;

/**
 * The Electron window's Content-Security-Policy: the very policy the gateway sends with
 * the browser-served UI (src-main/protocol/control-ui-policy.ts), one definition for both.
 */
export function buildContentSecurityPolicy(options: CspOptions = {}): string {
  return buildControlUiPolicy(options);
}

/** The part of Electron's `session.webRequest` this uses. */
export interface WebRequestLike {
  onHeadersReceived(
    listener: (
      details: { url: string; responseHeaders?: Record<string, string[]> },
      callback: (response: { responseHeaders?: Record<string, string[] | string> }) => void,
    ) => void,
  ): void;
}

/**
 * Adds the policy to every response the renderer's session receives from our own
 * origins (the app scheme and the dev server). Pages we do not own keep their headers.
 */
export function installContentSecurityPolicy(
  webRequest: WebRequestLike,
  policy: string,
  isOwnUrl: (url: string) => boolean,
): void {
  webRequest.onHeadersReceived((details, callback) => {
    if (!isOwnUrl(details.url)) {
      callback({});
      return;
    }
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      // Replace, never merge: a weaker policy from upstream must not survive.
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [policy];
    callback({ responseHeaders: headers });
  });
}
