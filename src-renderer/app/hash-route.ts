/**
 * The Control UI's hash routes: where a `hearth://` link (the desktop shell sets
 * `location.hash`, src-main/app/single-instance.ts routeForDeepLink), a pasted address
 * or the quick-ask window points the page. Hash routes, so the page is never reloaded
 * and nothing in them reaches a server.
 *
 *   #/sessions/<key>     open that chat
 *   #/pair?code=<code>   pair with the gateway in the setup code (`hearth pair qr`)
 *   #/quick-ask          the quick-ask composer (the small window on the global hotkey)
 *
 * The phone's QR link (`#pair=<code>`) is read by features/pairing/pair-code.ts.
 */
export type HashRoute =
  | { kind: 'session'; sessionKey: string }
  | { kind: 'pair'; code: string }
  | { kind: 'quick-ask' }
  | { kind: 'invalid'; reason: string };

/** The same rule as the shell's deep-link parser: what a session key may hold. */
const SESSION_KEY = /^[A-Za-z0-9][A-Za-z0-9:._@+-]{0,255}$/;
const SETUP_CODE = /^[A-Za-z0-9_-]+={0,2}$/;

/** undefined: no route in the hash (a plain page, or `#pair=` for the phone flow). */
export function parseHashRoute(hash: string): HashRoute | undefined {
  if (!hash.startsWith('#/')) return undefined;
  const [path = '', query = ''] = hash.slice(2).split('?', 2);
  const segments = path.split('/').filter((part) => part !== '');
  const [head, ...rest] = segments;
  switch (head) {
    case 'sessions': {
      if (rest.length !== 1) return { kind: 'invalid', reason: 'a chat link names exactly one chat' };
      let key: string;
      try {
        key = decodeURIComponent(rest[0]!);
      } catch {
        return { kind: 'invalid', reason: 'the chat name in the link is not valid percent-encoding' };
      }
      if (!SESSION_KEY.test(key)) return { kind: 'invalid', reason: `"${key.slice(0, 60)}" is not a chat name` };
      return { kind: 'session', sessionKey: key };
    }
    case 'pair': {
      const code = new URLSearchParams(query).get('code')?.trim() ?? '';
      if (!code) return { kind: 'invalid', reason: 'the pairing link has no code' };
      if (!SETUP_CODE.test(code)) return { kind: 'invalid', reason: 'the pairing link’s code is not a setup code' };
      return { kind: 'pair', code };
    }
    case 'quick-ask':
      return { kind: 'quick-ask' };
    default:
      return undefined;
  }
}

/** The route that opens a chat (what the quick-ask window hands the main window). */
export function sessionRoute(sessionKey: string): string {
  return `#/sessions/${encodeURIComponent(sessionKey)}`;
}

export interface RouteTargets {
  /** Select the chat and show the chat view. */
  openSession(sessionKey: string): void;
  /** Show the pairing screen and start pairing with the code. */
  pair(code: string): void;
  /** A link the page cannot follow: say why (it is never silently dropped). */
  refuse(reason: string): void;
}

/**
 * Follows a route once and reports whether the hash should be cleared: a pairing
 * code is single use and must not stay in the address bar (bookmarks, sync), and a
 * followed chat link is done. The quick-ask route stays: it is what that window is.
 */
export function followRoute(route: HashRoute | undefined, targets: RouteTargets): boolean {
  if (!route) return false;
  switch (route.kind) {
    case 'session':
      targets.openSession(route.sessionKey);
      return true;
    case 'pair':
      targets.pair(route.code);
      return true;
    case 'invalid':
      targets.refuse(route.reason);
      return true;
    case 'quick-ask':
      return false;
  }
}
