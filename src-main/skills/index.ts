export { learnTurnMessage } from './learn-command.js';
export { ARCHIVE_AFTER_MS, type CurationResult, curateSkills, STALE_AFTER_MS } from './skill-curator.js';
export { formatSkillFile, type ParsedSkill, parseSkillFile, SKILL_FILE, SkillFormatError } from './skill-file.js';
export {
  DUPLICATE_SIMILARITY,
  type GateResult,
  type GateVerdict,
  gateSkillProposal,
  jaccard,
  type SkillProposal,
  termSet,
} from './skill-gate.js';
export { discoverSkills, type Skill, type SkillFolders, type SkillOrigin } from './skill-library.js';
export { listSkillsForPrompt, SKILLS_PROMPT_BUDGET } from './skill-prompt.js';
export {
  createSkillService,
  type PendingSkill,
  type ProposeResult,
  type SkillEntry,
  SkillError,
  type SkillService,
  type SkillServiceDeps,
} from './skill-service.js';
export { createSkillTools, SKILL_VIEW } from './skill-tools.js';
