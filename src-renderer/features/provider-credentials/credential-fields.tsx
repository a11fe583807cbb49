import { type MessageKey, useT } from '../../app/stores-context.js';
import './credential-fields.css';
import type { CredentialField } from './credential-rules.js';

/** Where a credential form's values live: onboarding's setup draft, or the Auth view's own state. */
export interface CredentialBinding {
  value(field: CredentialField): string;
  edit(field: CredentialField, value: string): void;
  /** The field last refused (by the gateway or by credentialProblem), marked for the person to fix. */
  invalidField?: string;
}

/** One text field of a credential; marked invalid when it is the one refused. */
export function CredentialInput(props: {
  binding: CredentialBinding;
  field: CredentialField;
  label: MessageKey;
  placeholder?: string;
  secret?: boolean;
  wide?: boolean;
  url?: boolean;
}) {
  const t = useT();
  const { binding, field } = props;
  return (
    <label className={props.wide ? 'field credential-field credential-wide' : 'field credential-field'}>
      <span>{t(props.label)}</span>
      <input
        className="input"
        type={props.secret ? 'password' : 'text'}
        inputMode={props.url ? 'url' : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={props.placeholder}
        aria-invalid={binding.invalidField === field || undefined}
        value={binding.value(field)}
        onChange={(event) => binding.edit(field, event.target.value)}
      />
    </label>
  );
}

/**
 * Azure OpenAI: where the resource is, which api-version, and its key. The deployment is asked for
 * only where something is tested with it (onboarding); elsewhere it is the model the chain names.
 */
export function AzureCredentialFields({ binding, deployment }: { binding: CredentialBinding; deployment: boolean }) {
  const t = useT();
  return (
    <>
      <div className="credential-fields">
        <CredentialInput binding={binding} field="resourceName" label="setup.resourceName" placeholder="my-resource" />
        {deployment && (
          <CredentialInput binding={binding} field="deployment" label="setup.deployment" placeholder="gpt-4o" />
        )}
        <CredentialInput binding={binding} field="apiVersion" label="setup.apiVersion" placeholder="2024-10-21" />
        <CredentialInput binding={binding} field="apiKey" label="setup.apiKey" secret />
        <CredentialInput
          binding={binding}
          field="baseURL"
          label="setup.azureBaseURL"
          placeholder="https://my-resource.openai.azure.com/openai"
          wide
          url
        />
      </div>
      <p className="faint">{t(deployment ? 'setup.azureNote' : 'credential.azureNote')}</p>
    </>
  );
}

/** Amazon Bedrock: the region and an IAM access key pair (plus a session token for temporary keys). */
export function BedrockCredentialFields({ binding }: { binding: CredentialBinding }) {
  const t = useT();
  return (
    <>
      <div className="credential-fields">
        <CredentialInput binding={binding} field="region" label="setup.region" placeholder="us-east-1" />
        <CredentialInput binding={binding} field="accessKeyId" label="setup.accessKeyId" placeholder="AKIA…" />
        <CredentialInput binding={binding} field="secretAccessKey" label="setup.secretAccessKey" secret />
        <CredentialInput binding={binding} field="sessionToken" label="setup.sessionToken" secret />
        <CredentialInput
          binding={binding}
          field="baseURL"
          label="setup.endpointOptional"
          placeholder="https://bedrock.us-east-1.amazonaws.com"
          wide
          url
        />
      </div>
      <p className="faint">{t('setup.bedrockNote')}</p>
    </>
  );
}
