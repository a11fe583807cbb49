import { type ComponentType, lazy } from 'react';
import type { ViewId } from '../stores/ui-store.js';

// Every view is its own chunk: the first paint needs only the shell, and xterm or
// the markdown renderer load when their view is opened.
export const viewComponents: Record<ViewId, ComponentType> = {
  chat: lazy(() => import('../features/chat/chat-view.js').then((m) => ({ default: m.ChatView }))),
  agents: lazy(() => import('../features/agents/agents-view.js').then((m) => ({ default: m.AgentsView }))),
  approvals: lazy(() => import('../features/approvals/approvals-view.js').then((m) => ({ default: m.ApprovalsView }))),
  permissions: lazy(() =>
    import('../features/permissions/permissions-view.js').then((m) => ({ default: m.PermissionsView })),
  ),
  auth: lazy(() => import('../features/auth/auth-profiles-view.js').then((m) => ({ default: m.AuthProfilesView }))),
  memory: lazy(() => import('../features/memory/memory-view.js').then((m) => ({ default: m.MemoryView }))),
  dreams: lazy(() => import('../features/dreams/dreams-view.js').then((m) => ({ default: m.DreamsView }))),
  schedule: lazy(() => import('../features/schedule/schedule-view.js').then((m) => ({ default: m.ScheduleView }))),
  usage: lazy(() => import('../features/usage/usage-view.js').then((m) => ({ default: m.UsageView }))),
  skills: lazy(() => import('../features/skills/skills-view.js').then((m) => ({ default: m.SkillsView }))),
  canvas: lazy(() => import('../features/canvas/canvas-view.js').then((m) => ({ default: m.CanvasView }))),
  terminal: lazy(() => import('../features/terminal/terminal-view.js').then((m) => ({ default: m.TerminalView }))),
  devices: lazy(() => import('../features/devices/devices-view.js').then((m) => ({ default: m.DevicesView }))),
  channels: lazy(() => import('../features/channels/channels-view.js').then((m) => ({ default: m.ChannelsView }))),
  mcp: lazy(() => import('../features/mcp/mcp-view.js').then((m) => ({ default: m.McpView }))),
  settings: lazy(() => import('../features/settings/settings-view.js').then((m) => ({ default: m.SettingsView }))),
};

/** Views that manage their own scrolling (chat transcript, terminal, canvas iframe). */
export const flushViews: ReadonlySet<ViewId> = new Set(['chat', 'terminal', 'canvas']);
