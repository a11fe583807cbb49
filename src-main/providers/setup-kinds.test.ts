import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBedrockServer, startFakeBedrockServer } from '../testing/fake-bedrock-server.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { builtinProviders } from './builtin-providers.js';
import { listProviderModels } from './provider-models.js';

// Test connection for Azure OpenAI, Amazon Bedrock and the OpenAI Responses kind, against loopback
// servers speaking each wire protocol: Azure's deployments path with its api-key header and
// api-version, Bedrock's SigV4-signed ListFoundationModels and Converse. The Bedrock fake is
// checked against the AI SDK's own signer first, so it refuses what real Bedrock refuses.
const azureKey = 'azure-key-0123456789abcdef';
const pair = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const temporary = {
  accessKeyId: 'ASIAIOSFODNN7TEMPKEY',
  secretAccessKey: 'temporarySecretKey/abc+def',
  sessionToken: 'FwoGZXIvYXdzEJr//////////wEaDA+token=',
};
let llm: FakeLlmServer;
let bedrock: FakeBedrockServer;

beforeAll(async () => {
  llm = await startFakeLlmServer({ acceptKeys: [azureKey], azureDeployments: ['gpt4o-prod'] });
  bedrock = await startFakeBedrockServer({ region: 'eu-west-1', credentials: [pair, temporary] });
});
afterAll(async () => {
  await llm?.close();
  await bedrock?.close();
});

const service = (kind: string) => {
  const found = builtinProviders.find((s) => s.kind === kind);
  if (!found) throw new Error(`no ${kind}`);
  return found;
};

describe('Azure OpenAI setup', () => {
  const azure = (extra: Record<string, string | undefined>) =>
    listProviderModels({ kind: 'azure', baseURL: llm.baseUrlFor('azure'), apiKey: azureKey, fetch, ...extra });

  it('tests a deployment on its deployments path with the api-key header and api-version', async () => {
    const listing = await azure({ deployment: 'gpt4o-prod', apiVersion: '2024-10-21' });
    expect(listing).toEqual({
      ok: true,
      url: `${llm.baseUrlFor('azure')}/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21`,
      models: ['gpt4o-prod'],
    });
    const sent = llm.requests.at(-1);
    expect(sent?.path).toBe('/azure/openai/deployments/gpt4o-prod/chat/completions');
    expect(sent?.headers['api-key']).toBe('<redacted>');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.keyTail).toBe(azureKey.slice(-4));
  });

  it('reports Azure’s own refusals: a deployment that does not exist, a wrong key', async () => {
    const missing = await azure({ deployment: 'gpt4o-typo', apiVersion: '2024-10-21' });
    expect(missing).toMatchObject({ ok: false, problem: 'http', status: 404 });
    expect(!missing.ok && missing.message).toContain('deployment for this resource does not exist');
    const wrongKey = await azure({ deployment: 'gpt4o-prod', apiVersion: '2024-10-21', apiKey: 'wrong' });
    expect(wrongKey).toMatchObject({ ok: false, problem: 'auth', status: 401 });
    expect(!wrongKey.ok && wrongKey.message).toContain('invalid subscription key');
  });

  it('refuses bad input before sending, naming the field', async () => {
    const before = llm.requests.length;
    const cases: [Record<string, string | undefined>, string, string][] = [
      [{ baseURL: undefined, deployment: 'd' }, 'resourceName', 'resource name'],
      [
        { baseURL: undefined, resourceName: 'https://x.openai.azure.com', deployment: 'd' },
        'resourceName',
        'name only',
      ],
      [{ deployment: undefined }, 'deployment', 'deployment name'],
      [{ deployment: 'my deployment' }, 'deployment', 'letters, digits'],
      [{ deployment: 'd', apiVersion: 'latest' }, 'apiVersion', 'api version "latest"'],
    ];
    for (const [input, field, words] of cases) {
      const listing = await azure(input);
      expect(listing).toMatchObject({ ok: false, problem: 'bad_input', field });
      expect(!listing.ok && listing.message).toContain(words);
    }
    expect(llm.requests.length).toBe(before);
  });

  it('builds the resource URL from a resource name', async () => {
    const seen: string[] = [];
    const listing = await listProviderModels({
      kind: 'azure',
      resourceName: 'contoso-eu',
      deployment: 'gpt4o-prod',
      apiVersion: '2024-10-21',
      apiKey: azureKey,
      fetch: async (url) => {
        seen.push(String(url));
        return new Response('data: {"choices":[]}\n\n', { headers: { 'content-type': 'text/event-stream' } });
      },
    });
    expect(listing.ok).toBe(true);
    expect(seen).toEqual([
      'https://contoso-eu.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21',
    ]);
  });

  it('checks only the key when no deployment is known (the auth probe): the resource’s model list', async () => {
    const seen: string[] = [];
    const listing = await listProviderModels({
      kind: 'azure',
      resourceName: 'contoso-eu',
      apiVersion: 'v1',
      keyOnly: true,
      apiKey: azureKey,
      fetch: async (url, init) => {
        seen.push(`${String(url)} ${new Headers(init?.headers).get('api-key')}`);
        return Response.json({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'o3-mini' }] });
      },
    });
    expect(listing).toMatchObject({ ok: true, models: ['gpt-4o', 'o3-mini'] });
    expect(seen).toEqual([`https://contoso-eu.openai.azure.com/openai/models?api-version=2024-10-21 ${azureKey}`]);
  });

  it('chats through the deployment path the saved api-version names', async () => {
    llm.script({ type: 'text', text: 'azure says hi' });
    const model = service('azure').createModel('gpt4o-prod', {
      providerId: 'azure',
      baseURL: llm.baseUrlFor('azure'),
      apiVersion: '2024-10-21',
      credential: { kind: 'api_key', value: azureKey },
    });
    const result = streamText({ model, prompt: 'hello', maxRetries: 0 });
    expect(await result.text).toBe('azure says hi');
    expect(llm.requests.at(-1)?.path).toBe('/azure/openai/deployments/gpt4o-prod/chat/completions');
  });
});

describe('Amazon Bedrock setup', () => {
  const list = (extra: Record<string, unknown>) =>
    listProviderModels({ kind: 'bedrock', baseURL: bedrock.url, region: 'eu-west-1', aws: pair, fetch, ...extra });

  it('the fake checks SigV4 as Bedrock does: the AI SDK’s signed Converse and ConverseStream pass', async () => {
    const model = service('bedrock').createModel('amazon.nova-lite-v1:0', {
      providerId: 'bedrock',
      baseURL: bedrock.url,
      region: 'eu-west-1',
      credential: { kind: 'api_key', value: JSON.stringify(temporary) },
    });
    const once = await generateText({ model, prompt: 'one shot', maxRetries: 0 });
    expect(once.text).toBe('Bedrock heard: one shot');
    const streamed = streamText({ model, prompt: 'streamed', maxRetries: 0 });
    expect(await streamed.text).toBe('Bedrock heard: streamed');
    expect(bedrock.requests.slice(-2)).toMatchObject([
      { path: '/model/amazon.nova-lite-v1%3A0/converse', signed: true, accessKeyId: temporary.accessKeyId },
      { path: '/model/amazon.nova-lite-v1%3A0/converse-stream', signed: true },
    ]);
    const wrong = service('bedrock').createModel('amazon.nova-lite-v1:0', {
      providerId: 'bedrock',
      baseURL: bedrock.url,
      region: 'eu-west-1',
      credential: { kind: 'api_key', value: JSON.stringify({ ...pair, secretAccessKey: 'not-the-secret' }) },
    });
    await expect(generateText({ model: wrong, prompt: 'x', maxRetries: 0 })).rejects.toThrow(/signature/);
  });

  it('lists the text models with a signed ListFoundationModels', async () => {
    const listing = await list({});
    expect(listing).toEqual({
      ok: true,
      url: `${bedrock.url}/foundation-models?byOutputModality=TEXT`,
      models: ['amazon.nova-lite-v1:0', 'anthropic.claude-3-5-haiku-20241022-v1:0', 'meta.llama3-1-8b-instruct-v1:0'],
    });
    expect(bedrock.requests.at(-1)).toMatchObject({ method: 'GET', signed: true, accessKeyId: pair.accessKeyId });
  });

  it('signs with temporary credentials and their session token, also from the stored JSON secret', async () => {
    expect((await list({ aws: temporary })).ok).toBe(true);
    const fromSecret = await list({ aws: undefined, apiKey: JSON.stringify(temporary) });
    expect(fromSecret.ok).toBe(true);
  });

  it('reports Bedrock’s refusals: a wrong secret, an unknown key, another region', async () => {
    const wrongSecret = await list({ aws: { ...pair, secretAccessKey: 'wrong/secret' } });
    expect(wrongSecret).toMatchObject({ ok: false, problem: 'auth', status: 403 });
    expect(!wrongSecret.ok && wrongSecret.message).toContain('signature we calculated does not match');
    const unknown = await list({ aws: { ...pair, accessKeyId: 'AKIAUNKNOWNKEY000000' } });
    expect(!unknown.ok && unknown.message).toContain('security token included in the request is invalid');
    const region = await list({ region: 'us-west-2' });
    expect(!region.ok && region.message).toContain("Expected 'eu-west-1'");
  });

  it('refuses bad input before signing anything, naming the field', async () => {
    const before = bedrock.requests.length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ region: undefined }, 'region', 'needs the AWS region'],
      [{ region: 'Frankfurt' }, 'region', 'region "Frankfurt"'],
      [{ aws: { ...pair, accessKeyId: '' } }, 'accessKeyId', 'access key ID'],
      [{ aws: { ...pair, accessKeyId: 'akia-lower' } }, 'accessKeyId', 'capital letters'],
      [{ aws: { ...pair, secretAccessKey: '' } }, 'secretAccessKey', 'secret access key'],
      [{ aws: { ...pair, secretAccessKey: 'two words' } }, 'secretAccessKey', 'spaces'],
      [{ aws: { ...temporary, sessionToken: undefined } }, 'sessionToken', 'session token'],
      [{ aws: undefined, apiKey: 'not json' }, 'accessKeyId', 'access key ID'],
    ];
    for (const [input, field, words] of cases) {
      const listing = await list(input);
      expect(listing, JSON.stringify(input)).toMatchObject({ ok: false, problem: 'bad_input', field });
      expect(!listing.ok && listing.message).toContain(words);
    }
    expect(bedrock.requests.length).toBe(before);
  });
});

describe('OpenAI Responses setup', () => {
  it('tests like OpenAI (GET /models with a bearer key) and chats on /responses', async () => {
    const open = await startFakeLlmServer({ listedModels: ['gpt-5', 'gpt-5-mini'] });
    try {
      const listing = await listProviderModels({
        kind: 'openai-responses',
        baseURL: open.baseUrlFor('openai'),
        apiKey: 'sk-responses-1',
        fetch,
      });
      expect(listing).toMatchObject({ ok: true, models: ['gpt-5', 'gpt-5-mini'] });
      open.script({ type: 'text', text: 'responses here' });
      const model = service('openai-responses').createModel('gpt-5', {
        providerId: 'openai-responses',
        baseURL: open.baseUrlFor('openai'),
        credential: { kind: 'api_key', value: 'sk-responses-1' },
      });
      expect(await streamText({ model, prompt: 'hi', maxRetries: 0 }).text).toBe('responses here');
      expect(open.requests.at(-1)?.path).toBe('/openai/v1/responses');
    } finally {
      await open.close();
    }
  });
});
