import type { StoreApi } from 'zustand/vanilla';
import type { Language } from '../i18n/translate.js';
import { type AboutState, createAboutStore, type NoticeStorage } from './about-store.js';
import { type AgentsState, createAgentsStore } from './agents-store.js';
import { type ApprovalsState, createApprovalsStore } from './approvals-store.js';
import { type AuthState, createAuthStore } from './auth-store.js';
import { type CanvasState, createCanvasStore } from './canvas-store.js';
import { type ChannelsState, createChannelsStore } from './channels-store.js';
import { type ChatState, createChatStore } from './chat-store.js';
import { type ConfigState, createConfigStore } from './config-store.js';
import { type ConnectionStoreState, createConnectionStore } from './connection-store.js';
import { createDevicesStore, type DevicesState } from './devices-store.js';
import { createDreamsStore, type DreamsState } from './dreams-store.js';
import { disposeAll, type GatewayPort } from './gateway-port.js';
import { createImportStore, type ImportState } from './import-store.js';
import { createMcpStore, type McpState } from './mcp-store.js';
import { createMemoryStore, type MemoryState } from './memory-store.js';
import { createPauseStore, type PauseStoreState } from './pause-store.js';
import { createPermissionsStore, type PermissionsState } from './permissions-store.js';
import { createProviderSetupStore, type ProviderSetupState } from './provider-setup-store.js';
import { createScheduleStore, type ScheduleState } from './schedule-store.js';
import { createSessionsStore, parseSessionKey, type SessionsState } from './sessions-store.js';
import { createSkillsStore, type SkillsState } from './skills-store.js';
import { createSubagentsStore, type SubagentsState } from './subagents-store.js';
import { createTerminalStore, type TerminalState } from './terminal-store.js';
import { createUiStore, type UiState, type ViewId } from './ui-store.js';
import { createUsageStore, type UsageState } from './usage-store.js';

/** Every domain store, bound to one client. Built once at start (or per test), handed down by context. */
export interface Stores {
  connection: StoreApi<ConnectionStoreState>;
  /** The agents, and the one the chat list, Memory and Dreams follow. */
  agents: StoreApi<AgentsState>;
  sessions: StoreApi<SessionsState>;
  chat: StoreApi<ChatState>;
  /** Subagents as live cards in the chat that spawned them. */
  subagents: StoreApi<SubagentsState>;
  approvals: StoreApi<ApprovalsState>;
  /** "Pause agent" (agent.pause.changed): the app says so before a message is refused. */
  pause: StoreApi<PauseStoreState>;
  permissions: StoreApi<PermissionsState>;
  auth: StoreApi<AuthState>;
  memory: StoreApi<MemoryState>;
  dreams: StoreApi<DreamsState>;
  schedule: StoreApi<ScheduleState>;
  usage: StoreApi<UsageState>;
  skills: StoreApi<SkillsState>;
  canvas: StoreApi<CanvasState>;
  terminal: StoreApi<TerminalState>;
  devices: StoreApi<DevicesState>;
  channels: StoreApi<ChannelsState>;
  mcp: StoreApi<McpState>;
  config: StoreApi<ConfigState>;
  /** The gateway's version, home and upgrade report (Settings → About, the upgrade notice). */
  about: StoreApi<AboutState>;
  /** Import from OpenClaw / Hermes, offered in onboarding. */
  imports: StoreApi<ImportState>;
  /** Onboarding's provider setup (kind, Test connection, model chain, Save). */
  setup: StoreApi<ProviderSetupState>;
  ui: StoreApi<UiState>;
  /** Where the canvas is served (the gateway's HTTP origin); undefined = same origin as the page. */
  gatewayOrigin?: string;
  /** Clock time for countdowns. */
  now(): number;
  dispose(): void;
}

export interface CreateStoresOptions {
  language: Language;
  view?: ViewId;
  gatewayOrigin?: string;
  now: () => number;
  /** Where the upgrade notice remembers it was seen (the browser's localStorage); in memory when absent. */
  storage?: NoticeStorage;
}

export function createStores(client: GatewayPort, options: CreateStoresOptions): Stores {
  const now = options.now;
  const agents = createAgentsStore(client);
  const selectedAgent = () => agents.getState().selected;
  const bound = {
    connection: createConnectionStore(client),
    agents,
    sessions: createSessionsStore(client),
    chat: createChatStore(client),
    subagents: createSubagentsStore(client),
    approvals: createApprovalsStore(client),
    pause: createPauseStore(client),
    permissions: createPermissionsStore(client),
    auth: createAuthStore(client, now),
    memory: createMemoryStore(client, now, selectedAgent),
    dreams: createDreamsStore(client, selectedAgent, now),
    schedule: createScheduleStore(client),
    usage: createUsageStore(client),
    skills: createSkillsStore(client),
    canvas: createCanvasStore(client),
    terminal: createTerminalStore(client),
    devices: createDevicesStore(client),
    channels: createChannelsStore(client),
    mcp: createMcpStore(client),
    config: createConfigStore(client, now),
    about: createAboutStore(client, options.storage),
    imports: createImportStore(client),
    setup: createProviderSetupStore(client),
  };
  // Switching agents shows that agent's memory and diary at once, not after the next event.
  const followAgent = agents.subscribe((state, previous) => {
    if (state.selected === previous.selected) return;
    void bound.memory.getState().refresh();
    void bound.dreams.getState().refresh();
  });
  // Opening a chat of another agent (a search hit, a link) switches the agent with it.
  const followChat = bound.sessions.subscribe((state, previous) => {
    if (state.activeKey !== previous.activeKey) agents.getState().select(parseSessionKey(state.activeKey).agentId);
  });
  return {
    ...bound,
    ui: createUiStore({ view: options.view, language: options.language }),
    gatewayOrigin: options.gatewayOrigin,
    now,
    dispose: () => {
      followAgent();
      followChat();
      disposeAll(Object.values(bound));
    },
  };
}
