import { isValidAgentId } from './session-key.js';
import { SessionStoreError } from './session-store-api.js';

/** What callers hand the session store is checked here, each failure naming what was wrong. */

/** A missing transcript file means the caller named a session that does not exist. */
export async function notFoundAs<T>(agentId: string, sessionId: string, job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SessionStoreError('not_found', `no transcript for session ${sessionId} of agent "${agentId}"`);
    }
    throw error;
  }
}

export function checkAgentId(agentId: string): string {
  if (!isValidAgentId(agentId)) {
    throw new SessionStoreError(
      'invalid',
      `invalid agent id ${JSON.stringify(agentId)}: use 1-64 lowercase letters, digits, "-" or "_"`,
    );
  }
  return agentId;
}

export function positiveInt(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new SessionStoreError('invalid', `${name} must be an integer from 1 to ${max} (got ${value})`);
  }
  return value;
}

/** Session ids become file names: no separators, no dots. */
export function checkSessionId(sessionId: string): string {
  if (typeof sessionId !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) {
    throw new SessionStoreError('invalid', `invalid session id ${JSON.stringify(sessionId)}`);
  }
  return sessionId;
}
