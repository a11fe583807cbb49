export {
  type AgentSettings,
  type AgentView,
  agentIdFromName,
  createAgent,
  describeAgent,
  MAIN_AGENT_ID,
  type RosterSection,
  removeAgent,
  updateAgent,
} from './roster-edits.js';
export {
  createRoster,
  type PersonaFile,
  type RemovedAgent,
  type Roster,
  type RosterDeps,
} from './roster-service.js';
