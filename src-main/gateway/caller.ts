import type { AuthMethod, Role } from '../protocol/index.js';

/** Who is on the other end of a connection, as established by the handshake. */
export interface CallerIdentity {
  connId: string;
  role: Role;
  /** The grant in force (as sent in hello-ok.auth.scopes). */
  scopes: string[];
  clientId: string;
  clientMode: string;
  displayName?: string;
  platform?: string;
  deviceId?: string;
  authMethod: AuthMethod;
  /** A direct loopback peer (or the in-process desktop window). */
  isLocal: boolean;
  remoteAddress?: string;
  caps: string[];
}
