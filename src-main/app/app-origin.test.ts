import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN, isExternalWebUrl, isSameOrigin, originOf } from './app-origin.js';

describe('app origin', () => {
  it('gives the custom scheme a real origin, as Chromium does for a standard scheme', () => {
    expect(APP_ORIGIN).toBe('app://hearth');
    expect(originOf(APP_ENTRY_URL)).toBe(APP_ORIGIN);
    expect(originOf('http://127.0.0.1:5173/src/main.tsx')).toBe('http://127.0.0.1:5173');
  });

  it('has no origin for opaque or broken URLs', () => {
    expect(originOf('about:blank')).toBeUndefined();
    expect(originOf('data:text/html,hi')).toBeUndefined();
    expect(originOf('not a url')).toBeUndefined();
  });

  it('compares origins exactly: no look-alike hosts, ports or schemes', () => {
    expect(isSameOrigin('app://hearth/settings', APP_ORIGIN)).toBe(true);
    expect(isSameOrigin('app://hearth.evil/', APP_ORIGIN)).toBe(false);
    expect(isSameOrigin('app://evil/hearth', APP_ORIGIN)).toBe(false);
    expect(isSameOrigin('http://127.0.0.1:5174/', 'http://127.0.0.1:5173')).toBe(false);
  });

  it('sends only web and mail links to the system browser', () => {
    expect(isExternalWebUrl('https://example.com')).toBe(true);
    expect(isExternalWebUrl('mailto:me@example.com')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'hearth://session/x', 'nope']) {
      expect(isExternalWebUrl(url), url).toBe(false);
    }
  });
});
