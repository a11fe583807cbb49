import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { OnboardingCard } from './onboarding-card.js';

// The onboarding form against a scripted gateway: what it sends for each step and how it shows
// the answers. The real endpoint round trip is e2e/ui/onboarding.host.spec.ts.
let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

describe('provider setup in onboarding', () => {
  it('offers a found local server, tests the endpoint with a preset, and saves primary and fallbacks', async () => {
    const sent: Record<string, unknown>[] = [];
    app = startTestApp({
      'models.list': () => ({ models: [], fallbacks: [] }),
      'providers.detect': () => ({
        local: [
          {
            id: 'ollama',
            name: 'Ollama',
            kind: 'ollama',
            baseURL: 'http://127.0.0.1:11434/api',
            available: false,
            models: [],
            reason: 'connection refused',
          },
          {
            id: 'lmstudio',
            name: 'LM Studio',
            kind: 'openai-compatible',
            baseURL: 'http://127.0.0.1:1234/v1',
            available: true,
            models: ['qwen'],
          },
        ],
      }),
      'providers.test': (params) => {
        sent.push({ test: params });
        return { ok: true, url: 'https://api.deepseek.com/v1/models', models: ['deepseek-chat', 'deepseek-reasoner'] };
      },
      'providers.save': (params) => {
        sent.push({ save: params });
        return { providerId: params.id, profileId: `${params.id}:default`, primary: params.primary, fallbacks: [] };
      },
    });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    expect(await screen.findByRole('button', { name: 'Use LM Studio · 1 models' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'DeepSeek' }));
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('https://api.deepseek.com/v1');
    expect((screen.getByLabelText('Name in Hearth') as HTMLInputElement).value).toBe('deepseek');
    fireEvent.change(screen.getByLabelText('API key (if the endpoint needs one)'), { target: { value: ' sk-ds ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected: 2 models available.')).toBeTruthy();
    expect(sent[0]).toEqual({
      test: { kind: 'openai-compatible', baseURL: 'https://api.deepseek.com/v1', apiKey: 'sk-ds' },
    });

    fireEvent.change(screen.getByLabelText('Primary model'), { target: { value: 'deepseek/deepseek-reasoner' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /deepseek-chat/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    expect(
      await screen.findByText('Saved. New chats answer with deepseek/deepseek-reasoner. Say hello below.'),
    ).toBeTruthy();
    expect(sent[1]).toEqual({
      save: {
        id: 'deepseek',
        kind: 'openai-compatible',
        baseURL: 'https://api.deepseek.com/v1',
        apiKey: 'sk-ds',
        primary: 'deepseek/deepseek-reasoner',
        fallbacks: ['deepseek/deepseek-chat'],
      },
    });
    // The form does not keep the key once the server has it.
    expect(app.stores.setup.getState().draft.apiKey).toBe('');
  });

  it('shows the refusal in the provider’s words with what to try, and offers no Save', async () => {
    app = startTestApp({
      'models.list': () => ({ models: [], fallbacks: [] }),
      'providers.test': () => ({
        ok: false,
        problem: 'down',
        url: 'http://127.0.0.1:8000/v1/models',
        message: 'nothing is listening at 127.0.0.1:8000 (connection refused)',
      }),
    });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByRole('button', { name: 'vLLM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('nothing is listening at 127.0.0.1:8000 (connection refused)');
    expect(alert.textContent).toContain('Is the server running?');
    expect(screen.queryByRole('button', { name: 'Save and start' })).toBeNull();
  });

  it('asks for a base URL before testing a custom endpoint', async () => {
    app = startTestApp({ 'models.list': () => ({ models: [], fallbacks: [] }) });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Enter the base URL'));
  });

  it('needs a key for a hosted provider and names the provider id after the kind', async () => {
    app = startTestApp({ 'models.list': () => ({ models: [], fallbacks: [] }) });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByLabelText('Anthropic'));
    expect(app.stores.setup.getState().draft).toMatchObject({ kind: 'anthropic', id: 'anthropic' });
    expect(screen.queryByLabelText('Base URL')).toBeNull();
    expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-ant' } });
    expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('sets up Azure OpenAI: resource, deployment, api-version and key; the named bad field is marked', async () => {
    const sent: Record<string, unknown>[] = [];
    app = startTestApp({
      'models.list': () => ({ models: [], fallbacks: [] }),
      'providers.test': (params) => {
        sent.push({ test: params });
        if (params.deployment === 'gpt4o-typo') {
          return {
            ok: false,
            problem: 'http',
            status: 404,
            message: 'contoso.openai.azure.com answered HTTP 404: The API deployment for this resource does not exist.',
          };
        }
        if (params.deployment === 'gpt 4o') {
          return {
            ok: false,
            problem: 'bad_input',
            field: 'deployment',
            message: 'deployment "gpt 4o" may hold only letters, digits, . _ -',
          };
        }
        return {
          ok: true,
          url: 'https://contoso.openai.azure.com/openai/deployments/gpt4o/chat/completions',
          models: [params.deployment],
        };
      },
      'providers.save': (params) => {
        sent.push({ save: params });
        return { providerId: params.id, profileId: `${params.id}:default`, primary: params.primary, fallbacks: [] };
      },
    });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByLabelText('Azure OpenAI'));
    expect((screen.getByLabelText('API version') as HTMLInputElement).value).toBe('2024-10-21');
    fireEvent.change(screen.getByLabelText('Resource name'), { target: { value: ' contoso ' } });
    fireEvent.change(screen.getByLabelText('Deployment'), { target: { value: 'gpt 4o' } });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'azure-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('deployment "gpt 4o" may hold only letters');
    expect(alert.textContent).toContain('Fix the field named above');
    expect(screen.getByLabelText('Deployment').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Resource name').getAttribute('aria-invalid')).toBeNull();

    // Azure's 404 for a deployment it does not have points at the deployment, not at /v1.
    fireEvent.change(screen.getByLabelText('Deployment'), { target: { value: 'gpt4o-typo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Check the deployment name'));

    fireEvent.change(screen.getByLabelText('Deployment'), { target: { value: 'gpt4o' } });
    expect(screen.getByLabelText('Deployment').getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected: 1 models available.')).toBeTruthy();
    expect(sent[2]).toEqual({
      test: {
        kind: 'azure',
        resourceName: 'contoso',
        deployment: 'gpt4o',
        apiVersion: '2024-10-21',
        apiKey: 'azure-key',
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    expect(await screen.findByText('Saved. New chats answer with azure/gpt4o. Say hello below.')).toBeTruthy();
    expect(sent[3]).toEqual({
      save: {
        id: 'azure',
        kind: 'azure',
        resourceName: 'contoso',
        deployment: 'gpt4o',
        apiVersion: '2024-10-21',
        apiKey: 'azure-key',
        primary: 'azure/gpt4o',
        fallbacks: [],
      },
    });
    expect(app.stores.setup.getState().draft.apiKey).toBe('');
  });

  it('sets up Amazon Bedrock with region and key pair; a refused save names its field, the secrets go once saved', async () => {
    const sent: Record<string, unknown>[] = [];
    let refuse = true;
    app = startTestApp({
      'models.list': () => ({ models: [], fallbacks: [] }),
      'providers.test': (params) => {
        sent.push({ test: params });
        return {
          ok: true,
          url: 'https://bedrock.eu-west-1.amazonaws.com/foundation-models?byOutputModality=TEXT',
          models: ['amazon.nova-lite-v1:0', 'anthropic.claude-3-5-haiku-20241022-v1:0'],
        };
      },
      'providers.save': (params) => {
        sent.push({ save: params });
        if (refuse) {
          refuse = false;
          throw new GatewayError('INVALID_REQUEST', 'an ASIA… key is temporary: it needs its session token', {
            field: 'sessionToken',
          });
        }
        return { providerId: params.id, profileId: `${params.id}:default`, primary: params.primary, fallbacks: [] };
      },
    });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByLabelText('Amazon Bedrock'));
    expect(screen.queryByLabelText('API key')).toBeNull();
    fireEvent.change(screen.getByLabelText('AWS region'), { target: { value: 'eu-west-1' } });
    fireEvent.change(screen.getByLabelText('Access key ID'), { target: { value: 'ASIAEXAMPLE000000000' } });
    fireEvent.change(screen.getByLabelText('Secret access key'), { target: { value: 'secret/key ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected: 2 models available.')).toBeTruthy();
    expect(sent[0]).toEqual({
      test: {
        kind: 'bedrock',
        region: 'eu-west-1',
        accessKeyId: 'ASIAEXAMPLE000000000',
        secretAccessKey: 'secret/key',
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('needs its session token'));
    expect(screen.getByLabelText('Session token (temporary keys only)').getAttribute('aria-invalid')).toBe('true');
    // Nothing typed is lost on a refusal.
    expect(app.stores.setup.getState().draft).toMatchObject({ region: 'eu-west-1', secretAccessKey: 'secret/key ' });

    fireEvent.change(screen.getByLabelText('Session token (temporary keys only)'), { target: { value: 'tok' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('Connected: 2 models available.');
    fireEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    expect(
      await screen.findByText('Saved. New chats answer with bedrock/amazon.nova-lite-v1:0. Say hello below.'),
    ).toBeTruthy();
    expect(sent.at(-1)).toEqual({
      save: {
        id: 'bedrock',
        kind: 'bedrock',
        region: 'eu-west-1',
        accessKeyId: 'ASIAEXAMPLE000000000',
        secretAccessKey: 'secret/key',
        sessionToken: 'tok',
        primary: 'bedrock/amazon.nova-lite-v1:0',
        fallbacks: [],
      },
    });
    expect(app.stores.setup.getState().draft).toMatchObject({
      secretAccessKey: '',
      sessionToken: '',
      region: 'eu-west-1',
    });
  });

  it('offers OpenAI’s Responses API as its own kind, saved under its own provider id', async () => {
    app = startTestApp({ 'models.list': () => ({ models: [], fallbacks: [] }) });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByLabelText('OpenAI (Responses API)'));
    expect(app.stores.setup.getState().draft).toMatchObject({ kind: 'openai-responses', id: 'openai-responses' });
    expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-r' } });
    expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
