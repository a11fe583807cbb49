import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AwsCredentials, awsSignature, canonicalAwsPath, canonicalAwsQuery } from '../providers/aws-sigv4.js';

/**
 * Amazon Bedrock on loopback, speaking what the real one does: every request checked for a
 * SigV4 signature (AWS's own error types when it is missing, for an unknown key, a wrong
 * secret, a missing session token or another region), ListFoundationModels
 * (`GET /foundation-models`), Converse (`POST /model/{id}/converse`) and ConverseStream
 * (`POST /model/{id}/converse-stream`, binary `application/vnd.amazon.eventstream` frames with
 * their CRCs, as the AI SDK decodes them).
 */
export interface FakeBedrockOptions {
  /** The region requests must be signed for (default `us-east-1`). */
  region?: string;
  /** Credentials it knows; a request signed by any other key is refused. */
  credentials: AwsCredentials[];
  /** Model ids ListFoundationModels returns and Converse serves. */
  models?: string[];
  /** The answer to a Converse call (default: "Bedrock heard: <last user text>"). */
  reply?: (lastUserText: string) => string;
}

export interface FakeBedrockRequest {
  method: string;
  path: string;
  query: string;
  model?: string;
  lastUserText?: string;
  /** The access key id the request was signed with (never the secret). */
  accessKeyId?: string;
  /** Whether the signature checked out. */
  signed: boolean;
}

export interface FakeBedrockServer {
  url: string;
  readonly requests: FakeBedrockRequest[];
  close(): Promise<void>;
}

const defaultModels = [
  'anthropic.claude-3-5-haiku-20241022-v1:0',
  'amazon.nova-lite-v1:0',
  'meta.llama3-1-8b-instruct-v1:0',
];

export async function startFakeBedrockServer(options: FakeBedrockOptions): Promise<FakeBedrockServer> {
  const region = options.region ?? 'us-east-1';
  const models = options.models ?? defaultModels;
  const requests: FakeBedrockRequest[] = [];
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const [path = '/', query = ''] = raw.split('?');
    const body = await readBody(req);
    const record: FakeBedrockRequest = { method: req.method ?? 'GET', path, query, signed: false };
    requests.push(record);
    const refusal = checkSignature(req, path, query, body, region, options.credentials, record);
    if (refusal) return awsError(res, 403, refusal.type, refusal.message);
    record.signed = true;

    if (req.method === 'GET' && path === '/foundation-models') {
      const wanted = new URLSearchParams(query).get('byOutputModality');
      const summaries = models.map((modelId) => ({
        modelArn: `arn:aws:bedrock:${region}::foundation-model/${modelId}`,
        modelId,
        modelName: modelId,
        providerName: modelId.split('.')[0] ?? 'Amazon',
        inputModalities: ['TEXT'],
        outputModalities: ['TEXT'],
        responseStreamingSupported: true,
        customizationsSupported: [],
        inferenceTypesSupported: ['ON_DEMAND'],
        modelLifecycle: { status: 'ACTIVE' },
      }));
      // An embedding model, which a TEXT filter leaves out as the real service does.
      summaries.push({
        modelArn: `arn:aws:bedrock:${region}::foundation-model/amazon.titan-embed-text-v2:0`,
        modelId: 'amazon.titan-embed-text-v2:0',
        modelName: 'Titan Text Embeddings V2',
        providerName: 'Amazon',
        inputModalities: ['TEXT'],
        outputModalities: ['EMBEDDING'],
        responseStreamingSupported: false,
        customizationsSupported: [],
        inferenceTypesSupported: ['ON_DEMAND'],
        modelLifecycle: { status: 'ACTIVE' },
      });
      const modelSummaries = wanted ? summaries.filter((s) => s.outputModalities.includes(wanted)) : summaries;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ modelSummaries }));
      return;
    }

    const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(path);
    if (req.method !== 'POST' || !match) {
      return awsError(res, 404, 'UnknownOperationException', `no route for ${req.method} ${path}`);
    }
    const model = decodeURIComponent(match[1] ?? '');
    record.model = model;
    if (!models.includes(model)) {
      return awsError(res, 400, 'ValidationException', 'The provided model identifier is invalid.');
    }
    let request: { messages?: { role: string; content: { text?: string }[] }[] };
    try {
      request = JSON.parse(body);
    } catch {
      return awsError(res, 400, 'SerializationException', 'Start of structure or map found where not expected.');
    }
    const lastUser = [...(request.messages ?? [])].reverse().find((m) => m.role === 'user');
    const lastUserText = (lastUser?.content ?? []).map((part) => part.text ?? '').join('');
    record.lastUserText = lastUserText;
    const text = options.reply ? options.reply(lastUserText) : `Bedrock heard: ${lastUserText}`;
    const usage = { inputTokens: Math.max(1, Math.ceil(body.length / 4)), outputTokens: Math.ceil(text.length / 4) };
    const totals = { ...usage, totalTokens: usage.inputTokens + usage.outputTokens };
    if (match[2] === 'converse') {
      res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': requestId() });
      res.end(
        JSON.stringify({
          output: { message: { role: 'assistant', content: [{ text }] } },
          stopReason: 'end_turn',
          usage: totals,
          metrics: { latencyMs: 1 },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': requestId() });
    res.write(eventFrame('messageStart', { role: 'assistant' }));
    for (let i = 0; i < text.length; i += 6) {
      res.write(eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: text.slice(i, i + 6) } }));
    }
    res.write(eventFrame('contentBlockStop', { contentBlockIndex: 0 }));
    res.write(eventFrame('messageStop', { stopReason: 'end_turn' }));
    res.end(eventFrame('metadata', { usage: totals, metrics: { latencyMs: 1 } }));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Refusal = { type: string; message: string };

/** The server side of SigV4: rebuilds the canonical request from what arrived and compares. */
function checkSignature(
  req: IncomingMessage,
  path: string,
  query: string,
  body: string,
  region: string,
  known: AwsCredentials[],
  record: FakeBedrockRequest,
): Refusal | undefined {
  const auth = req.headers.authorization;
  if (!auth) return { type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const parts =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!parts) {
    return { type: 'IncompleteSignatureException', message: `Authorization header requires 'Credential' parameter.` };
  }
  const [, accessKeyId = '', date = '', scopeRegion = '', service = '', signedHeaders = '', signature = ''] = parts;
  record.accessKeyId = accessKeyId;
  const credentials = known.find((c) => c.accessKeyId === accessKeyId);
  const tokenSent = header(req, 'x-amz-security-token');
  if (!credentials || (credentials.sessionToken ?? undefined) !== (tokenSent || undefined)) {
    return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  if (scopeRegion !== region) {
    return {
      type: 'InvalidSignatureException',
      message: `Credential should be scoped to a valid region. Expected '${region}', got '${scopeRegion}'.`,
    };
  }
  const datetime = header(req, 'x-amz-date');
  if (!datetime || datetime.slice(0, 8) !== date || service !== 'bedrock') {
    return { type: 'InvalidSignatureException', message: 'Credential should be scoped to correct service and date.' };
  }
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) {
    return { type: 'InvalidSignatureException', message: 'Host and X-Amz-Date must be signed.' };
  }
  const canonicalHeaders = names.map((name) => `${name}:${header(req, name).trim().replace(/\s+/g, ' ')}`).join('\n');
  const canonicalRequest = [
    (req.method ?? 'GET').toUpperCase(),
    canonicalAwsPath(path),
    canonicalAwsQuery(new URLSearchParams(query)),
    `${canonicalHeaders}\n`,
    signedHeaders,
    createHash('sha256').update(body, 'utf8').digest('hex'),
  ].join('\n');
  const expected = awsSignature({
    secretAccessKey: credentials.secretAccessKey,
    datetime,
    region,
    service,
    canonicalRequest,
  });
  if (expected !== signature) {
    return {
      type: 'InvalidSignatureException',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    };
  }
  return undefined;
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function awsError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:`,
    'x-amzn-requestid': requestId(),
  });
  res.end(JSON.stringify({ message }));
}

let requestCounter = 0;
const requestId = () => `00000000-0000-4000-8000-${String(++requestCounter).padStart(12, '0')}`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One AWS event-stream message: prelude (lengths + CRC), string headers, JSON payload, CRC. */
function eventFrame(eventType: string, payload: Record<string, unknown>): Buffer {
  const headers = Buffer.concat(
    Object.entries({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }).map(
      ([name, value]) => {
        const nameBytes = Buffer.from(name, 'utf8');
        const valueBytes = Buffer.from(value, 'utf8');
        const head = Buffer.alloc(1 + nameBytes.length + 3);
        head.writeUInt8(nameBytes.length, 0);
        nameBytes.copy(head, 1);
        head.writeUInt8(7, 1 + nameBytes.length);
        head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
        return Buffer.concat([head, valueBytes]);
      },
    ),
  );
  // Bedrock pads each event with a "p" field so lengths do not leak the text; the SDK drops it.
  const body = Buffer.from(JSON.stringify({ ...payload, p: 'abcdefghij' }), 'utf8');
  const total = 12 + headers.length + body.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headers.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, headers, body, Buffer.alloc(4)]);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}
