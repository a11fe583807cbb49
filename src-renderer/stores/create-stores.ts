import type { StoreApi } from 'zustand/vanilla';
import type { Language } from '../i18n/translate.js';
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
import { createMemoryStore, type MemoryState } from './memory-store.js';
import { createScheduleStore, type ScheduleState } from './schedule-store.js';
import { createSessionsStore, type SessionsState } from './sessions-store.js';
import { createSkillsStore, type SkillsState } from './skills-store.js';
import { createTerminalStore, type TerminalState } from './terminal-store.js';
import { createUiStore, type UiState, type ViewId } from './ui-store.js';
import { createUsageStore, type UsageState } from './usage-store.js';

/** Every domain store, bound to one client. Built once at start (or per test), handed down by context. */
export interface Stores {
  connection: StoreApi<ConnectionStoreState>;
  sessions: StoreApi<SessionsState>;
  chat: StoreApi<ChatState>;
  approvals: StoreApi<ApprovalsState>;
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
  config: StoreApi<ConfigState>;
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
}

export function createStores(client: GatewayPort, options: CreateStoresOptions): Stores {
  const now = options.now;
  const bound = {
    connection: createConnectionStore(client),
    sessions: createSessionsStore(client),
    chat: createChatStore(client),
    approvals: createApprovalsStore(client),
    auth: createAuthStore(client, now),
    memory: createMemoryStore(client, now),
    dreams: createDreamsStore(client),
    schedule: createScheduleStore(client),
    usage: createUsageStore(client),
    skills: createSkillsStore(client),
    canvas: createCanvasStore(client),
    terminal: createTerminalStore(client),
    devices: createDevicesStore(client),
    channels: createChannelsStore(client),
    config: createConfigStore(client, now),
  };
  return {
    ...bound,
    ui: createUiStore({ view: options.view, language: options.language }),
    gatewayOrigin: options.gatewayOrigin,
    now,
    dispose: () => disposeAll(Object.values(bound)),
  };
}
