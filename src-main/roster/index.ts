export {
  type AgentSettings,
  agentIdFromName,
  createAgent,
  MAIN_AGENT_ID,
  type RosterSection,
  removeAgent,
  updateAgent,
} from './roster-edits.js';
export { createRoster, type RemovedAgent, type Roster, type RosterDeps } from './roster-service.js';
