import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBedrockServer, startFakeBedrockServer } from '../testing/fake-bedrock-server.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Onboarding's Azure OpenAI and Amazon Bedrock set-up in the composed host: providers.save writes
// the provider's fields into hearth.json and the secrets into the secret store (Bedrock's key pair
// never reaches hearth.json), refuses bad fields by name, and the saved provider answers a turn.
const azureKey = 'azure-host-key-5f2a';
const pair = { accessKeyId: 'AKIAHOSTTEST00000001', secretAccessKey: 'host/secret+access/key0000000000000000' };
let product: ProductFixture;
let llm: FakeLlmServer;
let bedrock: FakeBedrockServer;

beforeAll(async () => {
  llm = await startFakeLlmServer({ acceptKeys: [azureKey], azureDeployments: ['chat-prod'] });
  bedrock = await startFakeBedrockServer({ region: 'us-east-1', credentials: [pair] });
  product = await startProductFixture();
});
afterAll(async () => {
  await product?.close();
  await llm?.close();
  await bedrock?.close();
});

const hearthJsonText = () => readFile(join(product.home, 'hearth.json'), 'utf8');

describe('Azure and Bedrock set-up through the gateway', () => {
  it('refuses a Bedrock or Azure save with a bad field, naming it, and writes nothing', async () => {
    const before = await hearthJsonText();
    const noRegion = await product.socket.request('providers.save', {
      id: 'bedrock',
      kind: 'bedrock',
      ...pair,
      primary: 'bedrock/amazon.nova-lite-v1:0',
    });
    expect(noRegion.error).toMatchObject({ details: { field: 'region' } });
    expect(noRegion.error?.message).toContain('AWS region');
    const noSecret = await product.socket.request('providers.save', {
      id: 'bedrock',
      kind: 'bedrock',
      region: 'us-east-1',
      accessKeyId: pair.accessKeyId,
      primary: 'bedrock/amazon.nova-lite-v1:0',
    });
    expect(noSecret.error).toMatchObject({ details: { field: 'secretAccessKey' } });
    const badVersion = await product.socket.request('providers.save', {
      id: 'azure',
      kind: 'azure',
      resourceName: 'contoso',
      apiVersion: 'newest',
      apiKey: azureKey,
      primary: 'azure/chat-prod',
    });
    expect(badVersion.error).toMatchObject({ details: { field: 'apiVersion' } });
    expect(await hearthJsonText()).toBe(before);
  });

  it('tests and saves Bedrock: region in hearth.json, the key pair in the secret store; it answers', async () => {
    const tested = await product.socket.request('providers.test', {
      kind: 'bedrock',
      baseURL: bedrock.url,
      region: 'us-east-1',
      ...pair,
    });
    expect(tested.payload).toMatchObject({ ok: true, models: expect.arrayContaining(['amazon.nova-lite-v1:0']) });
    const saved = await product.socket.request('providers.save', {
      id: 'bedrock',
      kind: 'bedrock',
      baseURL: bedrock.url,
      region: ' us-east-1 ',
      accessKeyId: ` ${pair.accessKeyId}`,
      secretAccessKey: `${pair.secretAccessKey}\n`,
      primary: 'bedrock/amazon.nova-lite-v1:0',
    });
    expect(saved.payload).toMatchObject({ providerId: 'bedrock', profileId: 'bedrock:default' });
    const text = await hearthJsonText();
    expect(text).not.toContain(pair.secretAccessKey);
    expect(text).not.toContain(pair.accessKeyId);
    expect(JSON.parse(text).providers.bedrock).toEqual({ kind: 'bedrock', baseURL: bedrock.url, region: 'us-east-1' });
    // Test connection with the stored profile signs with the stored pair.
    const again = await product.socket.request('providers.test', {
      kind: 'bedrock',
      baseURL: bedrock.url,
      region: 'us-east-1',
      profileId: 'bedrock:default',
    });
    expect(again.payload).toMatchObject({ ok: true });

    const end = await product.turn('bedrock-1', 'hello bedrock');
    expect(end).toMatchObject({ state: 'final' });
    expect(bedrock.requests.at(-1)).toMatchObject({
      path: '/model/amazon.nova-lite-v1%3A0/converse-stream',
      signed: true,
      accessKeyId: pair.accessKeyId,
    });
  });

  it('tests and saves Azure with a dated api-version: the chat goes to the deployments path', async () => {
    const tested = await product.socket.request('providers.test', {
      kind: 'azure',
      baseURL: llm.baseUrlFor('azure'),
      deployment: 'chat-prod',
      apiVersion: '2024-10-21',
      apiKey: azureKey,
    });
    expect(tested.payload).toMatchObject({ ok: true, models: ['chat-prod'] });
    const saved = await product.socket.request('providers.save', {
      id: 'azure',
      kind: 'azure',
      baseURL: llm.baseUrlFor('azure'),
      apiVersion: '2024-10-21',
      apiKey: azureKey,
      primary: 'azure/chat-prod',
    });
    expect(saved.payload).toMatchObject({ providerId: 'azure', profileId: 'azure:default' });
    const text = await hearthJsonText();
    expect(text).not.toContain(azureKey);
    expect(JSON.parse(text).providers.azure).toEqual({
      kind: 'azure',
      baseURL: llm.baseUrlFor('azure'),
      apiVersion: '2024-10-21',
    });
    llm.script({ type: 'text', text: 'azure answers' });
    const end = await product.turn('azure-1', 'hello azure');
    expect(end).toMatchObject({ state: 'final' });
    expect(llm.requests.at(-1)).toMatchObject({
      path: '/azure/openai/deployments/chat-prod/chat/completions',
      keyTail: azureKey.slice(-4),
    });
  });

  it('probes the saved Azure key (the resource’s model list) and the Bedrock pair (signed list): both work', async () => {
    const probed = (await product.socket.request('auth.profiles.probe', { force: true })).payload as {
      profiles: { id: string; verified: boolean; lastProbe?: { ok: boolean; problem?: string } }[];
    };
    const byId = Object.fromEntries(probed.profiles.map((row) => [row.id, row]));
    expect(byId['azure:default']).toMatchObject({ verified: true, lastProbe: { ok: true } });
    expect(byId['bedrock:default']).toMatchObject({ verified: true, lastProbe: { ok: true } });
  });
});
