import { type ConnectParams, PROTOCOL_VERSION } from '../../src-main/protocol/connect.js';

export const UI_VERSION = '0.1.0';

/** The Control UI's `connect` params; it asks for full operator scopes and the gateway grants what it may. */
export function buildUiConnectParams(input: { token?: string; platform: string; locale?: string }): ConnectParams {
  const params: ConnectParams = {
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: { id: 'hearth-control-ui', mode: 'ui', version: UI_VERSION, platform: input.platform || 'web' },
    role: 'operator',
    scopes: ['operator.admin', 'operator.read', 'operator.write', 'operator.approvals', 'operator.pairing'],
    caps: ['exec-approvals'],
  };
  if (input.locale) params.locale = input.locale;
  if (input.token) params.auth = { token: input.token };
  return params;
}
