import { z } from 'zod';
import { method } from './define.js';

/** One skill as the Skills view and `hearth skills` see it (docs/TOOLS.md "Skills"). */
export interface SkillInfo {
  name: string;
  description: string;
  /** `bundled` (the app's), `user` (HEARTH_HOME/skills) or `workspace` (the agent's own, where learned skills go). */
  origin: 'bundled' | 'user' | 'workspace';
  /** Files beside SKILL.md, relative. */
  files: string[];
  hasScripts: boolean;
  /** For the agent asked about. */
  enabled: boolean;
  pinned: boolean;
  /** Unread for 30 days (archived after 90 unless pinned). */
  stale: boolean;
  /** Times the model read it with skill_view. */
  uses: number;
  lastUsedAt?: number;
}

/** A skill the agent proposed that passed the gate and waits for a person (skills with scripts, by default). */
export interface SkillProposalInfo {
  id: string;
  agentId: string;
  name: string;
  description: string;
  createdAt: number;
  /** Why it waits. */
  reasons: string[];
  files: string[];
  /** The agent's own skill it would replace. */
  replaces?: string;
}

const agentId = z.string().min(1).max(64).optional();
const name = z.string().min(1).max(64);
const id = z.string().min(1).max(40);

export const skillsMethods = {
  'skills.list': method<{ agentId: string; skills: SkillInfo[]; proposals: SkillProposalInfo[] }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId }).strict(),
  }),
  'skills.get': method<{ skill: SkillInfo; text: string }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId, name }).strict(),
  }),
  'skills.enable': method<{ skill: SkillInfo }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ agentId, name }).strict(),
  }),
  'skills.disable': method<{ skill: SkillInfo }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ agentId, name }).strict(),
  }),
  'skills.pin': method<{ skill: SkillInfo }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ agentId, name, pinned: z.boolean().optional() }).strict(),
  }),
  'skills.approve': method<{ name: string; agentId: string }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ id }).strict(),
  }),
  'skills.reject': method<{ name: string }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ id }).strict(),
  }),
};
