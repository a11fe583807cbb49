import { createHash, createHmac } from 'node:crypto';

/** AWS credentials as the person pastes them (an IAM user's pair, or temporary ones with a token). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsSignInput {
  method: string;
  url: string;
  region: string;
  /** The signing name: `bedrock` for both Bedrock's control plane and its runtime. */
  service: string;
  credentials: AwsCredentials;
  headers?: Record<string, string>;
  body?: string;
  /** Signing time; the request's clock by default. */
  now?: Date;
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 escaping, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
export const awsEscape = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The canonical request's path for every service but S3: each segment of the path as sent
 * (already escaped once) escaped again, per the SigV4 docs.
 */
export const canonicalAwsPath = (pathname: string) =>
  pathname
    .replace(/\/+/g, '/')
    .split('/')
    .map((segment) => awsEscape(segment))
    .join('/');

export const canonicalAwsQuery = (params: URLSearchParams) =>
  [...params]
    .map(([k, v]) => [awsEscape(k), awsEscape(v)] as const)
    .sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');

/** The signature for a canonical request (shared with the loopback fake that checks it). */
export function awsSignature(input: {
  secretAccessKey: string;
  datetime: string;
  region: string;
  service: string;
  canonicalRequest: string;
}): string {
  const date = input.datetime.slice(0, 8);
  const scope = `${date}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', input.datetime, scope, sha256(input.canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${input.secretAccessKey}`, date);
  const kSigning = hmac(hmac(hmac(kDate, input.region), input.service), 'aws4_request');
  return createHmac('sha256', kSigning).update(toSign, 'utf8').digest('hex');
}

/**
 * Signs a request with AWS Signature Version 4 (header form): returns the headers to send,
 * with `authorization`, `x-amz-date` and, for temporary credentials, `x-amz-security-token`.
 * Bedrock's SDK signs only its POSTs; onboarding's model list is a GET, so it signs here.
 */
export function signAwsRequest(input: AwsSignInput): Record<string, string> {
  const url = new URL(input.url);
  const datetime = (input.now ?? new Date()).toISOString().replace(/[:-]|\.\d{3}/g, '');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['x-amz-date'] = datetime;
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;
  const signed = ['host', ...Object.keys(headers).filter((name) => name !== 'content-type')].sort();
  const canonicalHeaders = signed
    .map((name) => `${name}:${name === 'host' ? url.host : (headers[name] ?? '').trim().replace(/\s+/g, ' ')}`)
    .join('\n');
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalAwsPath(url.pathname),
    canonicalAwsQuery(url.searchParams),
    `${canonicalHeaders}\n`,
    signed.join(';'),
    sha256(input.body ?? ''),
  ].join('\n');
  const signature = awsSignature({
    secretAccessKey: input.credentials.secretAccessKey,
    datetime,
    region: input.region,
    service: input.service,
    canonicalRequest,
  });
  const scope = `${datetime.slice(0, 8)}/${input.region}/${input.service}/aws4_request`;
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}`,
  };
}
