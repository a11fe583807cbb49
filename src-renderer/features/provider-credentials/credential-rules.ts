import {
  awsAccessKeyIdPattern,
  awsRegionPattern,
  azureApiVersionPattern,
  azureResourcePattern,
} from '../../../src-main/protocol/provider-setup-fields.js';
import type { MessageKey } from '../../i18n/en.js';
import { blankSetupFields } from '../../stores/provider-setup-store.js';

/**
 * What a provider's credential is made of, by kind, and how it is saved. Azure and Bedrock need
 * more than a key: Azure's key only works with its resource (name or base URL) and api-version,
 * which live in hearth.json; Bedrock signs with an IAM key pair kept as one JSON secret (what the
 * gateway's providers.save stores and the Bedrock adapter reads), for a region in hearth.json.
 * Onboarding and the Auth profiles view ask for the same fields; both send what the gateway keeps.
 */

/** The fields a person types to set up a provider's credential (onboarding's draft uses the same names). */
export type CredentialField =
  | 'baseURL'
  | 'apiKey'
  | 'resourceName'
  | 'deployment'
  | 'apiVersion'
  | 'region'
  | 'accessKeyId'
  | 'secretAccessKey'
  | 'sessionToken';

export type CredentialValues = Record<CredentialField, string>;

/** How a kind's credential is asked for: a single key, Azure's resource and key, Bedrock's key pair. */
export type CredentialForm = 'key' | 'azure' | 'bedrock';

export function credentialFormOf(providerKind: string): CredentialForm {
  return providerKind === 'azure' || providerKind === 'bedrock' ? providerKind : 'key';
}

export const blankCredential: CredentialValues = blankSetupFields;

/** A refused field and what to say about it, in the person's language. */
export interface CredentialProblem {
  field: CredentialField;
  message: MessageKey;
  params?: Record<string, string>;
}

// The field patterns are the gateway's own (protocol/provider-setup-fields.ts): Test connection and
// Save refuse the same input; auth.profiles.set does not check them, so the form does before sending.

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The first field a credential cannot be saved with, or undefined when it is complete. */
export function credentialProblem(form: CredentialForm, values: CredentialValues): CredentialProblem | undefined {
  const v = (field: CredentialField) => values[field].trim();
  const baseURL = v('baseURL');
  if (form === 'key') {
    return v('apiKey') ? undefined : { field: 'apiKey', message: 'credential.apiKeyMissing' };
  }
  if (form === 'azure') {
    const resource = v('resourceName');
    if (!resource && !baseURL) return { field: 'resourceName', message: 'credential.resourceMissing' };
    if (resource && !baseURL && !azureResourcePattern.test(resource)) {
      return { field: 'resourceName', message: 'credential.resourceBad', params: { value: resource } };
    }
    if (baseURL && !isHttpUrl(baseURL)) {
      return { field: 'baseURL', message: 'credential.baseURLBad', params: { value: baseURL } };
    }
    const version = v('apiVersion');
    if (version && !azureApiVersionPattern.test(version)) {
      return { field: 'apiVersion', message: 'credential.apiVersionBad', params: { value: version } };
    }
    return v('apiKey') ? undefined : { field: 'apiKey', message: 'credential.apiKeyMissing' };
  }
  const region = v('region');
  if (!region) return { field: 'region', message: 'credential.regionMissing' };
  if (!awsRegionPattern.test(region))
    return { field: 'region', message: 'credential.regionBad', params: { value: region } };
  const keyId = v('accessKeyId');
  if (!keyId) return { field: 'accessKeyId', message: 'credential.accessKeyIdMissing' };
  if (!awsAccessKeyIdPattern.test(keyId)) return { field: 'accessKeyId', message: 'credential.accessKeyIdBad' };
  const secret = v('secretAccessKey');
  if (!secret) return { field: 'secretAccessKey', message: 'credential.secretAccessKeyMissing' };
  if (/\s/.test(secret)) return { field: 'secretAccessKey', message: 'credential.secretAccessKeySpaces' };
  if (keyId.startsWith('ASIA') && !v('sessionToken')) {
    return { field: 'sessionToken', message: 'credential.sessionTokenMissing' };
  }
  if (baseURL && !isHttpUrl(baseURL)) {
    return { field: 'baseURL', message: 'credential.endpointBad', params: { value: baseURL } };
  }
  return undefined;
}

/** What is saved for a complete credential: the secret as the gateway keeps it, and the provider's settings. */
export interface SavedCredential {
  secret: string;
  /**
   * A JSON merge patch of `providers.<id>`, written before the secret. What the form shows is what
   * is written: an emptied optional field is removed (null), so a stale base URL cannot win silently.
   */
  providerEntry?: Record<string, unknown>;
}

/** The secret and settings of a credential `credentialProblem` accepted. */
export function savedCredential(form: CredentialForm, values: CredentialValues): SavedCredential {
  const v = (field: CredentialField) => values[field].trim();
  const baseURL = v('baseURL').replace(/\/+$/, '');
  if (form === 'key') return { secret: v('apiKey') };
  if (form === 'azure') {
    // As providers.save does: a base URL replaces the resource name.
    return {
      secret: v('apiKey'),
      providerEntry: {
        kind: 'azure',
        baseURL: baseURL || null,
        resourceName: baseURL ? null : v('resourceName'),
        apiVersion: v('apiVersion') || null,
      },
    };
  }
  // Bedrock's key pair, exactly as providers.save stores it (gateway/methods/providers.ts awsPair).
  const sessionToken = v('sessionToken');
  const pair = {
    accessKeyId: v('accessKeyId'),
    secretAccessKey: v('secretAccessKey'),
    ...(sessionToken ? { sessionToken } : {}),
  };
  return {
    secret: JSON.stringify(pair),
    providerEntry: { kind: 'bedrock', region: v('region'), baseURL: baseURL || null },
  };
}

/** The form's starting values for a provider already in hearth.json (never its secret). */
export function credentialFromEntry(entry: Record<string, unknown> | undefined): CredentialValues {
  const text = (key: string) => (typeof entry?.[key] === 'string' ? (entry[key] as string) : '');
  return {
    ...blankCredential,
    baseURL: text('baseURL'),
    resourceName: text('resourceName'),
    apiVersion: text('apiVersion'),
    region: text('region'),
  };
}
