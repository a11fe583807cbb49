import type { AuthMethod, Role } from '../protocol/index.js';

/** Who is on the other end of a connection, as established by the handshake. */
export interface CallerIdentity {
  connId: string;
  role: Role;
  /** The grant in force (as sent in hello-ok.auth.scopes); frozen, so checks may keep its expansion. */
  scopes: readonly string[];
  clientId: string;
  clientMode: string;
  displayName?: string;
  platform?: string;
  deviceId?: string;
  authMethod: AuthMethod;
  /** A direct loopback peer (or the in-process desktop window). */
  isLocal: boolean;
  /**
   * A person at one of the owner's own surfaces (desktop window; local CLI or this gateway's
   * Control UI with the gateway secret), as the handshake decided. A paired device's token
   * never makes one: widening scopes, granting admin and approving need this.
   */
  person?: boolean;
  remoteAddress?: string;
  caps: string[];
}
