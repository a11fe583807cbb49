import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
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
});
