import { OWNER_USER_ID } from '../../src-main/protocol/methods/memory.js';
import type { GatewayPort } from './gateway-port.js';

/**
 * Whose memory the Control UI shows. The person at the Control UI is the owner: with per-agent
 * memory that is the agent's memory; with per-user memory it is the owner's own scope, so every
 * memory and Dreaming call names `userId: owner` (the gateway refuses per-user calls without one)
 * and the owner's files live under `users/owner/`.
 */
export interface WhoseMemory {
  perUser: boolean;
  /** Extra parameters for memory.search and dreams.*. */
  params: { userId?: string };
  /** Workspace-relative folder of the owner's own files ('' with per-agent memory). */
  folder: string;
}

export const agentsMemory: WhoseMemory = { perUser: false, params: {}, folder: '' };

export async function whoseMemory(client: GatewayPort): Promise<WhoseMemory> {
  // memory.status is typed by the method table (MemoryStatusResult): nothing to decode by hand.
  const status = await client.request('memory.status', {});
  if (status.scope !== 'per-user') return agentsMemory;
  const folder = status.ownerFolder || `users/${OWNER_USER_ID}/`;
  return { perUser: true, params: { userId: OWNER_USER_ID }, folder };
}
