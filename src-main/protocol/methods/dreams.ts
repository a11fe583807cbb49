import { z } from 'zod';
import { method } from './define.js';
import { agentId, userId } from './memory.js';

export interface DreamCandidateInfo {
  text: string;
  path: string;
  line: number;
  recalls: number;
  uniqueQueries: number;
  score: number;
  signals: Record<string, number>;
  /** Empty when every gate passes. */
  failures: string[];
  withdrawn?: string;
}

export interface DreamsRunResult {
  day: string;
  applied: boolean;
  notesSeen: number;
  recalls: number;
  reflections: { tag: string; count: number }[];
  truths: { text: string; confidence: number }[];
  candidates: DreamCandidateInfo[];
  promoted: string[];
}

export const dreamsMethods = {
  'dreams.status': method<{
    enabled: boolean;
    cron: string;
    /** When the schedule fires next (epoch ms), while Dreaming is enabled. */
    next?: number;
    /** The scope's most recent run, kept across restarts. */
    last?: { at: number; promoted: number; applied: boolean };
  }>()({
    scope: 'operator.read',
    params: z.object({ agentId, userId }).strict(),
  }),
  'dreams.run': method<DreamsRunResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: z.object({ agentId, userId, apply: z.boolean().optional() }).strict(),
  }),
  'dreams.candidates': method<{ candidates: DreamCandidateInfo[] }>()({
    scope: 'operator.read',
    params: z.object({ agentId, userId }).strict(),
  }),
  'dreams.explain': method<{ lines: string[] }>()({
    scope: 'operator.read',
    params: z.object({ agentId, userId, text: z.string().min(1).max(2000) }).strict(),
  }),
};
