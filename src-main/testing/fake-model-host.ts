import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * Test support (never shipped): a loopback file host standing in for huggingface.co. It serves
 * the files of a model folder with Range support, and can misbehave the ways real downloads do:
 * cut the connection after some bytes, ignore Range, or answer an error status.
 */
export interface FakeModelHostOptions {
  /** Answer 200 with the whole file even when a Range is asked for. */
  ignoreRange?: boolean;
}

export interface FakeModelHost {
  url: string;
  /** Every request: path and the Range header sent (if any). */
  requests: { path: string; range?: string }[];
  /** URL of a served file. */
  fileUrl(path: string): string;
  /** SHA-256 and size of a served file. */
  digest(path: string): { sha256: string; size: number };
  /** The next request for `path` sends this many bytes of its answer, then stalls until `dropStalled`. */
  cutNextAfter(path: string, bytes: number): void;
  /** Drops every stalled connection mid-answer. */
  dropStalled(): void;
  /** Requests for `path` answer this status from now on (undefined: serve again). */
  failWith(path: string, status: number | undefined): void;
  setIgnoreRange(ignore: boolean): void;
  /** Replaces a served file's bytes (the checksum of the catalogue then no longer matches). */
  replace(path: string, bytes: Uint8Array): void;
  close(): Promise<void>;
}

export async function startFakeModelHost(
  files: Record<string, Uint8Array>,
  options: FakeModelHostOptions = {},
): Promise<FakeModelHost> {
  const served = new Map(Object.entries(files).map(([path, bytes]) => [path, Buffer.from(bytes)]));
  const cuts = new Map<string, number>();
  const failures = new Map<string, number>();
  let ignoreRange = options.ignoreRange ?? false;
  const requests: FakeModelHost['requests'] = [];
  const held = new Set<import('node:http').ServerResponse>();

  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').replace(/^\//, '').split('?')[0]!);
    const range = request.headers.range;
    requests.push({ path, ...(range ? { range } : {}) });
    const body = served.get(path);
    const failure = failures.get(path);
    if (failure !== undefined) {
      response.writeHead(failure, { 'content-type': 'text/plain' });
      response.end(`status ${failure}`);
      return;
    }
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('Entry not found');
      return;
    }
    let start = 0;
    let status = 200;
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' };
    const match = range && !ignoreRange ? /^bytes=(\d+)-$/.exec(range) : null;
    if (match) {
      start = Number(match[1]);
      if (start >= body.length) {
        response.writeHead(416, { 'content-range': `bytes */${body.length}` });
        response.end();
        return;
      }
      status = 206;
      headers['content-range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
    }
    const part = body.subarray(start);
    headers['content-length'] = String(part.length);
    response.writeHead(status, headers);
    const cut = cuts.get(path);
    if (cut !== undefined) {
      cuts.delete(path);
      // Part of the answer, then the line stalls until the test drops it (once the client has
      // shown it holds those bytes): what a lost Wi-Fi looks like, without racing the client.
      response.write(part.subarray(0, cut));
      held.add(response);
      return;
    }
    response.end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    requests,
    fileUrl: (path) => `${url}/${path}`,
    digest(path) {
      const bytes = served.get(path);
      if (!bytes) throw new Error(`not served: ${path}`);
      return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    },
    cutNextAfter: (path, bytes) => cuts.set(path, bytes),
    dropStalled() {
      for (const response of held) response.socket?.destroy();
      held.clear();
    },
    failWith: (path, status) => (status === undefined ? failures.delete(path) : failures.set(path, status)),
    setIgnoreRange: (ignore) => {
      ignoreRange = ignore;
    },
    replace: (path, bytes) => served.set(path, Buffer.from(bytes)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The files of a model folder (e.g. one `writeOnnxModelFixture` wrote), ready to serve. */
export async function readModelFiles(dir: string, paths: readonly string[]): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const path of paths) files[path] = await readFile(join(dir, path));
  return files;
}

/** A `memory.models` catalogue entry that installs the served files. */
export function servedCatalogueEntry(host: FakeModelHost, name: string, paths: readonly string[]) {
  return {
    name,
    description: 'test model served on loopback',
    languages: ['en', 'zh'],
    files: paths.map((path) => ({ path, url: host.fileUrl(path), ...host.digest(path) })),
  };
}
