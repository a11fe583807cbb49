import { createHash } from 'node:crypto';
import { link, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildContentSecurityPolicy } from '../app/csp.js';
import { connectRaw, createTestDeviceKey } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { inlineScriptHashes } from './inline-script-hashes.js';
import { createListenerNames, parseHostHeader } from './listener-names.js';
import { resolveInside, sendFile } from './static-files.js';

let host: TestHost;
let temp: Awaited<ReturnType<typeof createTempHome>>;
let uiDir: string;
let canvasDir: string;

beforeAll(async () => {
  temp = await createTempHome();
  uiDir = join(temp.home, 'ui');
  await mkdir(join(uiDir, 'assets'), { recursive: true });
  await writeFile(join(uiDir, 'index.html'), '<!doctype html><title>ui</title>');
  await writeFile(join(uiDir, 'assets', 'app.js'), 'console.log(1)');
  host = await startTestHost({ capabilities: false, controlUiDir: uiDir });
  canvasDir = join(host.paths.workspaceDir('main'), 'canvas');
  await writeFile(join(canvasDir, 'index.html'), '<h1>canvas</h1>');
});
afterAll(async () => {
  await host.close();
  await temp.cleanup();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with a Host header of our choosing (fetch does not let a test set Host). */
function get(path: string, hostHeader: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path, method, headers: { host: hostHeader } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The first line the server answers to raw bytes (for requests no HTTP client would send). */
function rawStatusLine(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(host.port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\r\n')) {
        resolve(text.slice(0, text.indexOf('\r\n')));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
  });
}

function upgradeStatus(hostHeader: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/`, { headers: { host: hostHeader } });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', () => resolve(-1));
  });
}

const ROUTES = [
  '/',
  '/index.html',
  '/chat?view=chat',
  '/assets/app.js',
  '/health',
  '/healthz',
  '/__hearth__/canvas/',
  '/__hearth__/canvas/index.html',
  '/__hearth__/canvas',
  '/no-such-file.txt',
];

describe('Host names (DNS rebinding)', () => {
  it('refuses a foreign Host with 421 on every route, before the route runs', async () => {
    const port = host.port;
    const foreign = [
      `evil.example:${port}`,
      `evil.example`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `attacker-rebind.localhost:${port}`,
      `10.11.12.13:${port}`,
      `user@127.0.0.1:${port}`,
      `127.0.0.1:${port} `.repeat(2),
      `127.0.0.1:${port},evil.example`,
    ];
    for (const name of foreign) {
      for (const path of ROUTES) {
        const answer = await get(path, name);
        expect({ name, path, status: answer.status }).toEqual({ name, path, status: 421 });
        expect(answer.body).not.toContain('canvas</h1>');
      }
      // Other methods too: the Host check comes before "405 method not allowed".
      expect((await get('/', name, 'POST')).status).toBe(421);
    }
  });

  it('refuses the right name on the wrong port, and a request without Host', async () => {
    expect((await get('/__hearth__/canvas/', `127.0.0.1:${host.port === 1 ? 2 : 1}`)).status).toBe(421);
    expect((await get('/__hearth__/canvas/', '127.0.0.1')).status).toBe(421);
    expect(await rawStatusLine('GET /__hearth__/canvas/ HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 421 /);
  });

  it('serves its own loopback names', async () => {
    for (const name of [
      `127.0.0.1:${host.port}`,
      `localhost:${host.port}`,
      `LOCALHOST.:${host.port}`,
      `[::1]:${host.port}`,
    ]) {
      const answer = await get('/__hearth__/canvas/', name);
      expect({ name, status: answer.status, body: answer.body }).toEqual({
        name,
        status: 200,
        body: '<h1>canvas</h1>',
      });
    }
  });

  it('refuses a WebSocket upgrade under a foreign name and accepts its own', async () => {
    expect(await upgradeStatus(`evil.example:${host.port}`)).toBe(421);
    expect(await upgradeStatus(`localhost:${host.port + 1}`)).toBe(421);
    expect(await upgradeStatus(`127.0.0.1:${host.port}`)).toBe(101);
  });
});

describe('listener names', () => {
  it('on a wildcard bind answers to the machine: interface addresses, host name, configured names', () => {
    const names = createListenerNames({
      bindHost: '0.0.0.0',
      port: () => 8443,
      tls: true,
      hostnames: ['Hearth.Example.net'],
      interfaceAddresses: () => ['192.168.1.20', 'fe80::1'],
      machineName: () => 'den',
    });
    for (const ok of [
      '192.168.1.20:8443',
      '[fe80::1]:8443',
      'den:8443',
      'den.local:8443',
      '0.0.0.0:8443',
      'hearth.example.net:8443',
      'localhost:8443',
    ])
      expect({ ok, allowed: names.allows(ok) }).toEqual({ ok, allowed: true });
    for (const bad of ['192.168.1.21:8443', 'evil.example:8443', '192.168.1.20:8444', '192.168.1.20', 'den.evil:8443'])
      expect({ bad, allowed: names.allows(bad) }).toEqual({ bad, allowed: false });
  });

  it('on a specific address answers to that address and loopback only; default ports follow the scheme', () => {
    const names = createListenerNames({
      bindHost: '192.168.1.20',
      port: () => 443,
      tls: true,
      interfaceAddresses: () => ['192.168.1.20', '10.0.0.5'],
    });
    expect(names.allows('192.168.1.20')).toBe(true);
    expect(names.allows('192.168.1.20:443')).toBe(true);
    expect(names.allows('10.0.0.5')).toBe(false);
    expect(names.allows(undefined)).toBe(false);
  });

  it('parses Host the way RFC 9110 writes it and nothing else', () => {
    expect(parseHostHeader('[::1]:80')).toEqual({ name: '::1', port: 80 });
    expect(parseHostHeader('Example.COM.')).toEqual({ name: 'example.com', port: undefined });
    for (const junk of ['a b', 'a:b:c', 'x:99999', '@x', 'x/y', '', '[::1', 'x:'])
      expect({ junk, parsed: parseHostHeader(junk) }).toEqual({ junk, parsed: undefined });
  });
});

describe('Control UI headers', () => {
  it('sends the Electron window policy for its own origin with every UI page', async () => {
    const origin = `http://127.0.0.1:${host.port}`;
    const expected = buildContentSecurityPolicy({ gatewayOrigin: origin });
    for (const path of ['/', '/index.html', '/settings', '/assets/app.js']) {
      const answer = await get(path, `127.0.0.1:${host.port}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-security-policy']).toBe(expected);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
    const policy = expected.split('; ');
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain(`connect-src 'self' ${origin} ws://127.0.0.1:${host.port}`);
    expect(policy).toContain(`frame-src ${origin}/__hearth__/canvas/`);
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('names the origin the browser used (localhost stays localhost)', async () => {
    const answer = await get('/', `localhost:${host.port}`);
    expect(answer.headers['content-security-policy']).toBe(
      buildContentSecurityPolicy({ gatewayOrigin: `http://localhost:${host.port}` }),
    );
  });

  it('sends the policy with the placeholder page when the UI is not built', async () => {
    const bare = await startTestHost({ capabilities: false, controlUiDir: join(temp.home, 'missing-ui') });
    try {
      const res = await fetch(`${bare.url}/`);
      expect(await res.text()).toContain('Hearth gateway is running');
      expect(res.headers.get('content-security-policy')).toBe(buildContentSecurityPolicy({ gatewayOrigin: bare.url }));
    } finally {
      await bare.close();
    }
  });

  it("allows exactly the inline scripts a served UI's own page contains (another build, e.g. OpenClaw's), never inline script in general", async () => {
    const otherUi = join(temp.home, 'other-ui');
    await mkdir(otherUi, { recursive: true });
    const theme = 'document.documentElement.dataset.theme = "dark";';
    await writeFile(
      join(otherUi, 'index.html'),
      `<!doctype html><script>${theme}</script><script type="module" src="./app.js"></script><script type="application/json">{"a":1}</script>`,
    );
    const other = await startTestHost({ capabilities: false, controlUiDir: otherUi });
    try {
      const policy = (await fetch(`${other.url}/`)).headers.get('content-security-policy') ?? '';
      const scriptSrc = policy.split('; ').find((d) => d.startsWith('script-src '));
      const expectedHash = `'sha256-${createHash('sha256').update(theme).digest('base64')}'`;
      expect(scriptSrc).toBe(`script-src 'self' ${expectedHash}`);
    } finally {
      await other.close();
    }
    expect(inlineScriptHashes('<script src="x.js"></script><script> </script><SCRIPT>a()</SCRIPT >')).toEqual([
      `'sha256-${createHash('sha256').update('a()').digest('base64')}'`,
    ]);
    expect(() => buildContentSecurityPolicy({ inlineScriptHashes: ["'unsafe-inline'"] })).toThrow(/inlineScriptHashes/);
  });

  it('keeps the canvas in its own sandbox (no UI policy, opaque origin)', async () => {
    const answer = await get('/__hearth__/canvas/', `127.0.0.1:${host.port}`);
    expect(answer.headers['content-security-policy']).toBe('sandbox allow-scripts allow-forms');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('canvas files', () => {
  const own = () => `127.0.0.1:${host.port}`;

  it('refuses a hard link to a file outside the canvas folder', async () => {
    const secret = join(host.paths.identityDir, 'planted-secret.txt');
    await writeFile(secret, 'TOP-SECRET-KEY');
    await link(secret, join(canvasDir, 'innocent.txt'));
    const answer = await get('/__hearth__/canvas/innocent.txt', own());
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('TOP-SECRET-KEY');
  });

  it('refuses any multiply-linked file, even when both names are inside (which name is "the" file cannot be told)', async () => {
    await writeFile(join(canvasDir, 'a.txt'), 'twice');
    await link(join(canvasDir, 'a.txt'), join(canvasDir, 'b.txt'));
    expect((await get('/__hearth__/canvas/a.txt', own())).status).toBe(404);
    expect((await get('/__hearth__/canvas/b.txt', own())).status).toBe(404);
  });

  it('refuses symlinks out, directory symlinks out, and path tricks', async () => {
    const outside = join(temp.home, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'loot.txt'), 'LOOT');
    await symlink(join(outside, 'loot.txt'), join(canvasDir, 'link.txt'));
    await symlink(outside, join(canvasDir, 'dir'));
    await symlink(host.paths.identityDir, join(canvasDir, 'id'));
    for (const path of [
      '/__hearth__/canvas/link.txt',
      '/__hearth__/canvas/dir/loot.txt',
      '/__hearth__/canvas/id/gateway-token',
      '/__hearth__/canvas/../hearth.json',
      '/__hearth__/canvas/%2e%2e/%2e%2e/identity/gateway-token',
      '/__hearth__/canvas/..%2f..%2fidentity%2fgateway-token',
      '/__hearth__/canvas/..%5c..%5cidentity%5cgateway-token',
      '/__hearth__/canvas/index.html%00.png',
      '/__hearth__/canvas/%252e%252e/hearth.json',
      '/__hearth__/canvas//etc/passwd',
      '/__hearth__/canvas/%E0%A4%A',
    ]) {
      const answer = await get(path, own());
      // Refused, or (a dot-dot the URL parser folded away) the Control UI's own page: never the file.
      const outcome = answer.status === 200 && answer.body.includes('<title>ui</title>') ? 'ui page' : answer.status;
      expect({ path, outcome }).toEqual({ path, outcome: path.includes('%2e%2e/') ? 'ui page' : 404 });
      expect(answer.body).not.toContain('LOOT');
      expect(answer.body).not.toContain(host.token);
    }
  });

  it('refuses at send time a file a swapped folder now leads out to (resolve, then race, then open)', async () => {
    const folder = join(temp.home, 'race-canvas');
    await mkdir(join(folder, 'sub'), { recursive: true });
    await writeFile(join(folder, 'sub', 'page.txt'), 'inside');
    const outside = join(temp.home, 'race-outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'page.txt'), 'OUTSIDE-SECRET');
    const resolved = await resolveInside(folder, '/sub/page.txt', { refuseHardLinks: true });
    expect(resolved).toBe(join(folder, 'sub', 'page.txt'));
    // The race, one step at a time: the folder is swapped for a symlink out after the check.
    await rename(join(folder, 'sub'), join(folder, 'sub-old'));
    await symlink(outside, join(folder, 'sub'));
    const server = createServer((_req, res) => void sendFile(res, resolved!, {}, { within: folder }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('OUTSIDE-SECRET');
    } finally {
      server.close();
    }
  });

  it('still serves an ordinary file and a symlink that stays inside', async () => {
    await writeFile(join(canvasDir, 'page.html'), '<p>fine</p>');
    await symlink(join(canvasDir, 'page.html'), join(canvasDir, 'alias.html'));
    expect((await get('/__hearth__/canvas/page.html', own())).body).toBe('<p>fine</p>');
    expect((await get('/__hearth__/canvas/alias.html', own())).body).toBe('<p>fine</p>');
  });
});

describe('browser sign-in', () => {
  const uiScopes = ['operator.admin', 'operator.read', 'operator.write', 'operator.approvals', 'operator.pairing'];
  const signIn = (device: ReturnType<typeof createTestDeviceKey>, auth: { token?: string; deviceToken?: string }) =>
    connectRaw(host.wsUrl, {
      ...auth,
      device,
      clientId: 'hearth-control-ui',
      clientMode: 'ui',
      scopes: uiScopes,
      headers: { origin: `http://127.0.0.1:${host.port}` },
    });

  it('issues the Control UI a device token for its key every time it signs in with the gateway token', async () => {
    const device = createTestDeviceKey();
    const first = await signIn(device, { token: host.token });
    const issued = (first.hello.payload as { auth: { deviceToken?: string } }).auth.deviceToken;
    expect(issued).toEqual(expect.any(String));
    first.socket.close();
    // The browser lost its device token (storage cleared) but kept its key: signing in again
    // must hand it a new one, or it could never stay signed in without storing the gateway token.
    const again = await signIn(device, { token: host.token });
    const reissued = (again.hello.payload as { auth: { deviceToken?: string } }).auth.deviceToken;
    expect(reissued).toEqual(expect.any(String));
    expect(reissued).not.toBe(issued);
    again.socket.close();
    const withToken = await signIn(device, { deviceToken: reissued });
    expect(withToken.hello.ok).toBe(true);
    expect((withToken.hello.payload as { auth: { scopes: string[] } }).auth.scopes).toEqual(uiScopes);
    withToken.socket.close();
  });

  it('gives a page of another origin no device token, even with the gateway token', async () => {
    const device = createTestDeviceKey();
    const { socket, hello } = await connectRaw(host.wsUrl, {
      token: host.token,
      device,
      clientId: 'hearth-control-ui',
      clientMode: 'ui',
      scopes: uiScopes,
      headers: { origin: 'http://evil.example' },
    });
    expect((hello.payload as { auth?: { deviceToken?: string } } | undefined)?.auth?.deviceToken).toBeUndefined();
    socket.close();
  });
});
