import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isSameOrigin } from './app-origin.js';
import { buildContentSecurityPolicy, installContentSecurityPolicy, type WebRequestLike } from './csp.js';

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split('; ').map((part) => {
      const [name, ...rest] = part.split(' ');
      return [name!, rest.join(' ')];
    }),
  );
}

describe('Content-Security-Policy', () => {
  it('allows only the app itself, the gateway and the canvas path of the gateway', () => {
    const policy = directives(buildContentSecurityPolicy({ gatewayOrigin: 'http://127.0.0.1:18790' }));
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self'");
    // The gateway only: no wildcard ports, so a page cannot reach other loopback services.
    expect(policy.get('connect-src')).toBe("'self' http://127.0.0.1:18790 ws://127.0.0.1:18790");
    expect(policy.get('frame-src')).toBe('http://127.0.0.1:18790/__hearth__/canvas/');
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
  });

  it('never allows eval or inline scripts', () => {
    const policy = buildContentSecurityPolicy({ gatewayOrigin: 'http://127.0.0.1:1' });
    expect(directives(policy).get('script-src')).not.toMatch(/unsafe/);
  });

  it('allows no frames at all without a canvas origin', () => {
    expect(directives(buildContentSecurityPolicy()).get('frame-src')).toBe("'none'");
  });

  it('admits the dev server (and its HMR socket) only when one is given', () => {
    const policy = directives(buildContentSecurityPolicy({ devServerOrigin: 'http://localhost:5173' }));
    expect(policy.get('script-src')).toBe("'self' http://localhost:5173");
    expect(policy.get('connect-src')).toContain('ws://localhost:5173');
  });

  it('rejects a gateway origin that is not a bare http(s) origin, naming the option', () => {
    expect(() => buildContentSecurityPolicy({ gatewayOrigin: 'http://127.0.0.1:1/canvas' })).toThrow(
      /gatewayOrigin must be a bare origin/,
    );
    expect(() => buildContentSecurityPolicy({ gatewayOrigin: 'javascript:alert(1)' })).toThrow(
      /gatewayOrigin must be http\(s\)/,
    );
    expect(() => buildContentSecurityPolicy({ gatewayOrigin: '127.0.0.1' })).toThrow(/gatewayOrigin is not a URL/);
    expect(() => buildContentSecurityPolicy({ devServerOrigin: "http://x 'unsafe-eval'" })).toThrow(/devServerOrigin/);
  });

  it('sets the header on our own responses, replacing any upstream policy, and leaves others alone', () => {
    let listener: Parameters<WebRequestLike['onHeadersReceived']>[0] | undefined;
    installContentSecurityPolicy(
      {
        onHeadersReceived: (l) => {
          listener = l;
        },
      },
      "default-src 'self'",
      (url) => isSameOrigin(url, 'app://hearth'),
    );
    const answers: unknown[] = [];
    listener!(
      { url: APP_ENTRY_URL, responseHeaders: { 'content-security-policy': ['default-src *'], 'X-A': ['1'] } },
      (r) => answers.push(r),
    );
    listener!({ url: 'https://example.com/', responseHeaders: { 'X-B': ['2'] } }, (r) => answers.push(r));
    expect(answers).toEqual([
      { responseHeaders: { 'X-A': ['1'], 'Content-Security-Policy': ["default-src 'self'"] } },
      {},
    ]);
  });
});
