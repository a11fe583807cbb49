// Debian's Chromium, never a downloaded browser (ENVIRONMENT.md "Browser tests"). Without the
// background-networking flags Chromium floods this machine's closed network at every start.
export const chromiumExecutable = '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
