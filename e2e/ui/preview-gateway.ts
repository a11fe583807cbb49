import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { type WebSocket, WebSocketServer } from 'ws';
import { createPreviewChats } from './preview-chats.js';
import * as data from './preview-data.js';
import { createPreviewSchedule } from './preview-schedule.js';

/**
 * A loopback stand-in for the gateway, for screenshots and UI flows whose capabilities
 * the real host does not serve yet: the built Control UI over HTTP and the protocol's
 * frames over WebSocket on the same port, answering from preview-data.ts.
 */
export interface PreviewGateway {
  url: string;
  token: string;
  /** Sends an event to every connected UI. */
  broadcast(event: string, payload: unknown): void;
  requestApproval(id: string, command: string): void;
  rewriteCanvas(): void;
  calls(method: string): unknown[];
  close(): Promise<void>;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

export interface PreviewGatewayOptions {
  uiDir: string;
  token?: string;
  /** Give the main session this many messages instead of the short sample (scroll benchmarks). */
  historySize?: number;
}

export async function startPreviewGateway(options: PreviewGatewayOptions): Promise<PreviewGateway> {
  const token = options.token ?? 'preview-token';
  const sockets = new Set<WebSocket>();
  const seen: { method: string; params: unknown }[] = [];
  const pending = new Map<string, ReturnType<typeof data.approvalRequest>>();
  let canvasRevision = 1;
  let cooldownUntil = Date.now() + 90_000;
  let terminalSeq = 0;
  let seq = 0;

  const send = (socket: WebSocket, frame: unknown) => socket.send(JSON.stringify(frame));
  const chats = createPreviewChats();
  const schedule = createPreviewSchedule(data.previewNow);
  const broadcast = (event: string, payload: unknown) => {
    for (const socket of sockets) send(socket, { type: 'event', event, payload, seq: ++seq });
  };

  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://preview.invalid').pathname;
    if (path.startsWith('/__hearth__/canvas')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      response.end(data.canvasHtml(canvasRevision));
      return;
    }
    const relative = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join(options.uiDir, relative));
      response.writeHead(200, { 'content-type': types[extname(relative)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end('not found');
    }
  });

  const streamAnswer = (socket: WebSocket, sessionKey: string, runId: string, question: string) => {
    const answer = `You asked: *${question}*.\n\nHere is a tiny example:\n\n\`\`\`bash\necho "hello from Hearth" # streamed\n\`\`\`\n\nAnything else?`;
    const chunks = answer.match(/.{1,12}/gs) ?? [answer];
    let text = '';
    chunks.forEach((chunk, i) => {
      setTimeout(
        () => {
          if (socket.readyState !== socket.OPEN) return;
          text += chunk;
          const last = i === chunks.length - 1;
          send(socket, {
            type: 'event',
            event: 'chat',
            seq: ++seq,
            payload: {
              runId,
              sessionKey,
              seq: i + 1,
              state: last ? 'final' : 'delta',
              deltaText: chunk,
              message: { role: 'assistant', content: [{ type: 'text', text }] },
            },
          });
        },
        40 * (i + 1),
      );
    });
  };

  const answer = (socket: WebSocket, method: string, params: Record<string, unknown>): unknown => {
    switch (method) {
      case 'agents.list':
        return {
          defaultId: 'main',
          mainKey: 'main',
          scope: 'per-sender',
          agents: [
            {
              id: 'main',
              kind: 'agent',
              name: 'main',
              workspace: '/home/sam/.hearth/workspace',
              model: { primary: 'anthropic/claude-sonnet-4', fallbacks: [] },
            },
          ],
        };
      case 'sessions.list':
      case 'sessions.create':
      case 'sessions.rename':
      case 'sessions.pin':
      case 'sessions.archive':
      case 'sessions.delete':
      case 'sessions.fork':
        return chats.answer(method, params, (key) =>
          broadcast('sessions.changed', { reason: 'patched', agentId: key.split(':')[1], key }),
        );
      case 'chat.history':
        if (options.historySize && params.sessionKey === 'agent:main:main')
          return data.longHistory(options.historySize);
        return data.history(String(params.sessionKey));
      case 'chat.send': {
        const runId = String(params.idempotencyKey);
        streamAnswer(socket, String(params.sessionKey), runId, String(params.message));
        return { runId, status: 'started' };
      }
      case 'chat.abort':
        return { ok: true, aborted: false, runIds: [] };
      case 'models.list':
        return data.models;
      case 'exec.approval.list':
        return [...pending.values()];
      case 'exec.approval.resolve': {
        const id = String(params.id);
        if (!pending.delete(id))
          throw Object.assign(new Error('unknown or expired approval id'), { code: 'INVALID_REQUEST' });
        setTimeout(
          () =>
            broadcast('exec.approval.resolved', {
              id,
              decision: params.decision,
              resolvedBy: 'Control UI',
              ts: Date.now(),
            }),
          10,
        );
        return { ok: true };
      }
      case 'auth.profiles.list':
        return data.authProfiles(cooldownUntil);
      case 'auth.profiles.probe':
        // The preview's rows already carry what a probe would have found.
        return { profiles: data.authProfiles(cooldownUntil).profiles };
      case 'providers.detect':
        return { local: [] };
      case 'auth.profiles.set':
        return { profile: { id: params.id } };
      case 'auth.profiles.remove':
        return { ok: true, removed: true };
      case 'config.patch':
        return { ok: true, path: '~/.hearth/hearth.json', hash: 'h3', changedPrefixes: ['agents'] };
      case 'memory.search':
        return data.memorySearch(String(params.query));
      case 'memory.files.list':
        return data.memoryFiles();
      case 'memory.file.get':
        if (params.path === 'DREAMS.md') return { path: 'DREAMS.md', content: data.dreamsDiary };
        return { path: params.path, content: data.memoryDocs[String(params.path)] ?? '' };
      case 'memory.file.set':
        data.memoryDocs[String(params.path)] = String(params.content);
        return { ok: true };
      case 'dreams.status':
        return {
          enabled: true,
          cron: '0 3 * * *',
          last: { at: Date.now() - 8 * 3_600_000, promoted: 1, applied: true },
        };
      case 'dreams.candidates':
        return { candidates: data.dreamCandidates };
      case 'dreams.run':
        return data.dreamsRun(params.apply === true);
      case 'dreams.explain':
        return {
          lines: [
            'recalled 4 times, from 2 distinct queries, on 3 days',
            'score 0.91 ≥ threshold 0.75',
            'not yet in MEMORY.md',
          ],
        };
      case 'device.pair.list':
        return data.devices;
      case 'config.get':
        return {
          path: '~/.hearth/hearth.json',
          exists: true,
          raw: data.configRaw,
          parsed: JSON.parse(data.configRaw),
          hash: 'h1',
          valid: true,
        };
      case 'config.set': {
        const parsed = JSON.parse(String(params.raw)) as { gateway?: { port?: unknown } };
        if (typeof parsed.gateway?.port !== 'number') {
          throw Object.assign(new Error('invalid config'), {
            code: 'INVALID_REQUEST',
            details: { errors: [{ path: 'gateway.port', message: 'expected number, received string' }] },
          });
        }
        return { ok: true, path: '~/.hearth/hearth.json', hash: 'h2', changedPrefixes: [] };
      }
      case 'terminal.open':
        terminalSeq += 1;
        setTimeout(
          () =>
            broadcast('terminal.output', { terminalId: `t${terminalSeq}`, data: '\x1b[1;32msam@hearth\x1b[0m:~$ ' }),
          20,
        );
        return { terminalId: `t${terminalSeq}` };
      case 'terminal.input': {
        // A line-echoing shell: enough to show input goes out and output comes back.
        const text = String(params.data);
        const out = text === '\r' ? '\r\n\x1b[1;32msam@hearth\x1b[0m:~$ ' : text;
        broadcast('terminal.output', { terminalId: params.terminalId, data: out });
        return { ok: true };
      }
      case 'terminal.resize':
      case 'terminal.close':
        return { ok: true };
      default: {
        const scheduled = schedule(method, params);
        if (scheduled !== undefined) return scheduled;
        throw Object.assign(new Error(`unknown method: ${method}`), { code: 'INVALID_REQUEST' });
      }
    }
  };

  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    send(socket, {
      type: 'event',
      event: 'connect.challenge',
      payload: { nonce: crypto.randomUUID(), ts: Date.now(), capabilities: [] },
    });
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as { id: string; method: string; params?: Record<string, unknown> };
      seen.push({ method: frame.method, params: frame.params });
      if (frame.method === 'connect') {
        const given = (frame.params?.auth as { token?: string } | undefined)?.token;
        if (given !== token) {
          send(socket, {
            type: 'res',
            id: frame.id,
            ok: false,
            error: {
              code: 'INVALID_REQUEST',
              message: 'unauthorized: gateway token mismatch',
              details: { code: 'AUTH_TOKEN_MISMATCH' },
            },
          });
          socket.close(1008, 'unauthorized');
          return;
        }
        send(socket, {
          type: 'res',
          id: frame.id,
          ok: true,
          payload: {
            type: 'hello-ok',
            protocol: 4,
            server: { version: 'preview', connId: crypto.randomUUID() },
            features: { methods: [], events: [], capabilities: [] },
            snapshot: { presence: [], health: {}, stateVersion: { presence: 0, health: 0 }, uptimeMs: 1 },
            auth: { role: 'operator', scopes: ['operator.admin'], method: 'token' },
            policy: { maxPayload: 26_214_400, maxBufferedBytes: 52_428_800, tickIntervalMs: 30_000 },
          },
        });
        return;
      }
      try {
        const payload = answer(socket, frame.method, frame.params ?? {});
        send(socket, { type: 'res', id: frame.id, ok: true, payload });
      } catch (error) {
        const e = error as Error & { code?: string; details?: unknown };
        send(socket, {
          type: 'res',
          id: frame.id,
          ok: false,
          error: { code: e.code ?? 'INTERNAL', message: e.message, details: e.details },
        });
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    broadcast,
    requestApproval(id, command) {
      const request = data.approvalRequest(id, command);
      pending.set(id, request);
      broadcast('exec.approval.requested', request);
    },
    rewriteCanvas() {
      canvasRevision += 1;
      broadcast('canvas.changed', { path: 'index.html', revision: canvasRevision });
    },
    calls: (method) => seen.filter((c) => c.method === method).map((c) => c.params),
    close: async () => {
      cooldownUntil = 0;
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
