import { z } from 'zod';
import { type MethodSpec, method } from './define.js';

/**
 * Methods OpenClaw's Control UI calls for capabilities Hearth does not have (yet). Each answers
 * a coded UNAVAILABLE naming the missing capability, so a view shows "not available" instead of
 * "unknown method", and a client can tell "not here" from "broken". When a capability lands it
 * takes its names out of this table and registers real handlers. Listed in docs/GATEWAY.md.
 */
export const openClawUnavailable = {
  'skills.status': { capability: 'skills', reason: 'Hearth has no skills library yet' },
  'skills.search': { capability: 'skills', reason: 'Hearth has no skills library yet' },
  'skills.library.list': { capability: 'skills', reason: 'Hearth has no skills library yet' },
  'talk.catalog': { capability: 'talk', reason: 'Hearth has no voice (talk) providers' },
  'plugins.list': { capability: 'plugins', reason: "Hearth's plugins are not managed from OpenClaw's UI" },
  'plugins.catalog.browse': { capability: 'plugins', reason: 'Hearth has no plugin catalogue' },
  'plugins.controlUi.list': { capability: 'plugins', reason: 'Hearth plugins contribute no OpenClaw UI surfaces' },
  'themes.list': { capability: 'themes', reason: 'Hearth keeps no server-side UI themes' },
  'users.prefs.get': { capability: 'user-prefs', reason: 'Hearth keeps no server-side UI preferences' },
  'board.get': { capability: 'boards', reason: 'Hearth has no session boards' },
  'tasks.list': { capability: 'tasks', reason: 'Hearth has no background task queue' },
  'taskSuggestions.list': { capability: 'tasks', reason: 'Hearth has no background task queue' },
  'progressCard.get': { capability: 'tasks', reason: 'Hearth has no background task queue' },
  'mentions.list': { capability: 'mentions', reason: 'Hearth has no mentions inbox' },
  'sessions.companion.state': { capability: 'companions', reason: 'Hearth has no companion sessions' },
  'session.discussion.info': { capability: 'discussions', reason: 'Hearth has no shared session discussions' },
  'session.members.listEvidence': { capability: 'members', reason: 'Hearth sessions have no member lists' },
  'sessions.groups.list': { capability: 'session-groups', reason: 'Hearth has no session groups' },
  'sessions.groups.defaults': { capability: 'session-groups', reason: 'Hearth has no session groups' },
  'sessions.github.options': { capability: 'github', reason: 'Hearth has no GitHub integration' },
} as const satisfies Record<string, { capability: string; reason: string }>;

export type OpenClawUnavailableMethod = keyof typeof openClawUnavailable;

/** Any params are fine (the wire drops unknown keys); the answer is the same UNAVAILABLE. */
const unavailableSpec = method<never>()({ scope: 'operator.read', params: () => z.object({}).strict() });

export const openClawUnavailableMethods = Object.fromEntries(
  Object.keys(openClawUnavailable).map((name) => [name, unavailableSpec]),
) as { [M in OpenClawUnavailableMethod]: MethodSpec<typeof unavailableSpec.params, never> };
