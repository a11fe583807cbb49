import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LocalProviderRow, ProviderTestResult, setupKinds } from '../../src-main/protocol/methods/providers.js';
import { disposeAll, errorText, type GatewayPort, record, str } from './gateway-port.js';

export type SetupKind = (typeof setupKinds)[number];

/** A known OpenAI-compatible service: its documented API root, and whether it wants a key. */
export interface CompatiblePreset {
  id: string;
  name: string;
  baseURL: string;
  needsKey: boolean;
}

// Base URLs as each service documents them for OpenAI clients.
export const compatiblePresets: readonly CompatiblePreset[] = [
  { id: 'lmstudio', name: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', needsKey: false },
  { id: 'openrouter', name: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1', needsKey: true },
  { id: 'vllm', name: 'vLLM', baseURL: 'http://127.0.0.1:8000/v1', needsKey: false },
  { id: 'deepseek', name: 'DeepSeek', baseURL: 'https://api.deepseek.com/v1', needsKey: true },
];

/** The provider id each hosted kind is saved under (a custom endpoint gets its own). */
const idOfKind: Record<Exclude<SetupKind, 'openai-compatible'>, string> = {
  openai: 'openai',
  'openai-responses': 'openai-responses',
  anthropic: 'anthropic',
  google: 'google',
  azure: 'azure',
  bedrock: 'bedrock',
  ollama: 'ollama',
};

/** Azure's GA dated api-version: the deployment's own URL, as most Azure samples use. */
export const defaultAzureApiVersion = '2024-10-21';

export interface SetupDraft {
  kind: SetupKind;
  /** Provider id in hearth.json (`providers.<id>`). */
  id: string;
  baseURL: string;
  apiKey: string;
  /** Azure: resource name, deployment, api-version. */
  resourceName: string;
  deployment: string;
  apiVersion: string;
  /** Bedrock: region and the access key pair (secrets: kept only until saved). */
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

/** The draft fields a person types (everything but the kind). */
export type SetupField = Exclude<keyof SetupDraft, 'kind'>;

export interface ProviderSetupState {
  draft: SetupDraft;
  local: LocalProviderRow[];
  detecting: boolean;
  testing: boolean;
  /** What the last Test connection found, for the draft as it was then. */
  result?: ProviderTestResult;
  primary?: string;
  fallbacks: string[];
  saving: boolean;
  saved?: { providerId: string; primary: string };
  error?: string;
  /** The field the server named as wrong (Test connection's bad_input, or a refused save). */
  invalidField?: string;
  choose(kind: SetupKind): void;
  applyPreset(preset: CompatiblePreset): void;
  pickLocal(row: LocalProviderRow): void;
  edit(patch: Partial<Pick<SetupDraft, SetupField>>): void;
  detect(): Promise<void>;
  test(): Promise<void>;
  pickPrimary(model: string): void;
  toggleFallback(model: string): void;
  save(): Promise<boolean>;
}

/** Every setup field empty: a new draft, and the credential form's start (features/provider-credentials). */
export const blankSetupFields = {
  baseURL: '',
  apiKey: '',
  resourceName: '',
  deployment: '',
  apiVersion: '',
  region: '',
  accessKeyId: '',
  secretAccessKey: '',
  sessionToken: '',
};
const emptyDraft: SetupDraft = { kind: 'openai-compatible', id: 'custom', ...blankSetupFields };

/** What providers.test and providers.save get from a draft: only the fields its kind uses, trimmed. */
function kindParams(draft: SetupDraft): Record<string, string> {
  const names: SetupField[] =
    draft.kind === 'azure'
      ? ['baseURL', 'apiKey', 'resourceName', 'deployment', 'apiVersion']
      : draft.kind === 'bedrock'
        ? ['baseURL', 'region', 'accessKeyId', 'secretAccessKey', 'sessionToken']
        : ['baseURL', 'apiKey'];
  const params: Record<string, string> = {};
  for (const name of names) {
    const value = draft[name].trim();
    if (value) params[name] = value;
  }
  return params;
}

/** The secrets a draft holds: cleared once the server has them. */
const clearedSecrets = { apiKey: '', secretAccessKey: '', sessionToken: '' };

/** A provider id from a host name, so two custom endpoints do not overwrite each other. */
export function providerIdFor(baseURL: string): string {
  try {
    const host = new URL(baseURL).hostname.replace(/^api\./, '').split('.')[0] ?? '';
    const slug = host.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    return slug && slug !== '127' && slug !== 'localhost' ? slug : 'local';
  } catch {
    return 'custom';
  }
}

/**
 * Onboarding's provider setup: pick a kind (or a found local server), Test connection lists the
 * provider's models, the person picks a primary and fallbacks, and Save hands it to the server
 * (providers.save), which validates and writes hearth.json and the secret store.
 */
export function createProviderSetupStore(client: GatewayPort): StoreApi<ProviderSetupState> & { dispose(): void } {
  const store = createStore<ProviderSetupState>((set, get) => {
    // Any change to what would be tested makes the last answer stale.
    const reset = {
      result: undefined,
      primary: undefined,
      fallbacks: [],
      saved: undefined,
      error: undefined,
      invalidField: undefined,
    };
    return {
      draft: emptyDraft,
      local: [],
      detecting: false,
      testing: false,
      fallbacks: [],
      saving: false,
      choose(kind) {
        const id = kind === 'openai-compatible' ? providerIdFor(get().draft.baseURL) : idOfKind[kind];
        const baseURL = kind === 'openai-compatible' ? get().draft.baseURL : '';
        const apiVersion = kind === 'azure' ? defaultAzureApiVersion : '';
        set({ draft: { ...blankSetupFields, kind, id, baseURL, apiVersion }, ...reset });
      },
      applyPreset(preset) {
        set({
          draft: { ...blankSetupFields, kind: 'openai-compatible', id: preset.id, baseURL: preset.baseURL },
          ...reset,
        });
      },
      pickLocal(row) {
        set({ draft: { ...blankSetupFields, kind: row.kind, id: row.id, baseURL: row.baseURL }, ...reset });
        void get().test();
      },
      edit(patch) {
        const draft = { ...get().draft, ...patch };
        // A custom endpoint is named after its host until the person names it.
        if (patch.baseURL !== undefined && draft.kind === 'openai-compatible' && patch.id === undefined) {
          const before = providerIdFor(get().draft.baseURL);
          if (get().draft.id === before || get().draft.id === 'custom') draft.id = providerIdFor(draft.baseURL);
        }
        set({ draft, ...reset });
      },
      async detect() {
        set({ detecting: true });
        try {
          const { local } = await client.request('providers.detect', {});
          set({ local, detecting: false });
        } catch (error) {
          set({ detecting: false, error: errorText(error) });
        }
      },
      async test() {
        const { draft } = get();
        if (draft.kind === 'openai-compatible' && !draft.baseURL.trim()) {
          set({ error: 'Enter the base URL of the endpoint (e.g. http://127.0.0.1:1234/v1).' });
          return;
        }
        set({ testing: true, ...reset });
        try {
          const result = await client.request('providers.test', { kind: draft.kind, ...kindParams(draft) });
          const first = result.ok ? result.models[0] : undefined;
          set({
            testing: false,
            result,
            primary: first ? `${draft.id}/${first}` : undefined,
            invalidField: result.ok ? undefined : result.field,
          });
        } catch (error) {
          set({ testing: false, error: errorText(error) });
        }
      },
      pickPrimary(model) {
        set({ primary: model, fallbacks: get().fallbacks.filter((m) => m !== model) });
      },
      toggleFallback(model) {
        const { fallbacks, primary } = get();
        if (model === primary) return;
        set({ fallbacks: fallbacks.includes(model) ? fallbacks.filter((m) => m !== model) : [...fallbacks, model] });
      },
      async save() {
        const { draft, primary, fallbacks } = get();
        if (!primary) {
          set({ error: 'Test the connection and pick a model first.' });
          return false;
        }
        set({ saving: true, error: undefined });
        try {
          const saved = await client.request('providers.save', {
            id: draft.id,
            kind: draft.kind,
            ...kindParams(draft),
            primary,
            fallbacks,
          });
          // The key is in the secret store now; the form no longer holds it.
          set({
            saving: false,
            saved: { providerId: saved.providerId, primary: saved.primary },
            draft: { ...draft, ...clearedSecrets },
          });
          return true;
        } catch (error) {
          set({ saving: false, error: errorText(error), invalidField: fieldOf(error) });
          return false;
        }
      },
    };
  });
  const subscriptions = [client.onDidConnect(() => void store.getState().detect())];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}

/** The field a refused request named (`details.field` of the gateway's error). */
function fieldOf(error: unknown): string | undefined {
  return str(record(record(error).details).field) || undefined;
}
