/**
 * What the desktop's main process says about the gateways a window can use (this computer's or a
 * paired one), over the `hearth:gateways` IPC channel rather than the gateway wire. One shape for
 * main (src-main/app/remote-gateway-switch.ts), the preload and the renderer; never a token or a key.
 */
export interface GatewaysView {
  /** `local` (this computer) or a paired gateway's id. */
  active: string;
  gateways: { id: string; name?: string; url: string; tlsFingerprint: string; pairedAt: number }[];
  /** The pairing under way (or the last one's problem). */
  pairing?: {
    phase: 'connecting' | 'waiting' | 'failed';
    deviceId?: string;
    expiresAt?: number;
    gatewayName?: string;
    requestId?: string;
    notice?: string;
    problem?: { kind: string; message: string };
  };
  /** Why the gateway in use cannot be reached or was refused (its certificate). */
  problem?: string;
}
