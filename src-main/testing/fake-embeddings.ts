import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server speaking OpenAI's POST /v1/embeddings, for testing provider embeddings
 * through the real AI SDK. Vectors are a deterministic function of the text (letter counts),
 * so similar texts get similar vectors. `failWith` makes the next requests answer an error;
 * `apiKey` makes it refuse requests that do not carry that key.
 */
export interface FakeEmbeddingsServer {
  baseUrl: string;
  requests: { model: string; input: string[]; authorization?: string }[];
  failWith(status: number, message: string): void;
  close(): Promise<void>;
}

export interface FakeEmbeddingsOptions {
  dimension?: number;
  /** When set, a request without `Authorization: Bearer <apiKey>` answers 401, as OpenAI does. */
  apiKey?: string;
}

export async function startFakeEmbeddingsServer(options: FakeEmbeddingsOptions = {}): Promise<FakeEmbeddingsServer> {
  const dimension = options.dimension ?? 16;
  const requests: FakeEmbeddingsServer['requests'] = [];
  let failure: { status: number; message: string } | undefined;
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }));
      return;
    }
    const parsed = JSON.parse(body) as { model: string; input: string | string[] };
    const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
    requests.push({ model: parsed.model, input, authorization: request.headers.authorization });
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
      return;
    }
    if (failure) {
      response.writeHead(failure.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: failure.message, type: 'invalid_request_error' } }));
      return;
    }
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: vectorFor(text, dimension) }));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        object: 'list',
        data,
        model: parsed.model,
        usage: { prompt_tokens: input.length, total_tokens: input.length },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    failWith(status, message) {
      failure = { status, message };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function vectorFor(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const char of text.toLowerCase()) vector[(char.codePointAt(0) ?? 0) % dimension]! += 1;
  return vector;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    request.on('data', (chunk: Buffer) => {
      data += chunk.toString('utf8');
    });
    request.on('end', () => resolve(data));
    request.on('error', reject);
  });
}
