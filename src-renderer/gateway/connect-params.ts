import { type ConnectParams, PROTOCOL_VERSION } from '../../src-main/protocol/connect.js';

export const UI_VERSION = '0.1.0';

/** Everything an operator may do: the Control UI asks for it all and the gateway grants what it may. */
export const CONTROL_UI_SCOPES = [
  'operator.admin',
  'operator.read',
  'operator.write',
  'operator.approvals',
  'operator.pairing',
];

/** The Control UI's `connect` params; it asks for full operator scopes and the gateway grants what it may. */
export function buildUiConnectParams(input: { token?: string; platform: string; locale?: string }): ConnectParams {
  const params: ConnectParams = {
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: { id: 'hearth-control-ui', mode: 'ui', version: UI_VERSION, platform: input.platform || 'web' },
    role: 'operator',
    scopes: [...CONTROL_UI_SCOPES],
    caps: ['exec-approvals'],
  };
  if (input.locale) params.locale = input.locale;
  if (input.token) params.auth = { token: input.token };
  return params;
}
