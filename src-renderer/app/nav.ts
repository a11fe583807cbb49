import type { MessageKey } from '../i18n/en.js';
import type { ViewId } from '../stores/ui-store.js';

export interface NavEntry {
  id: ViewId;
  label: MessageKey;
}

export const navEntries: NavEntry[] = [
  { id: 'chat', label: 'nav.chat' },
  { id: 'agents', label: 'nav.agents' },
  { id: 'approvals', label: 'nav.approvals' },
  { id: 'permissions', label: 'nav.permissions' },
  { id: 'memory', label: 'nav.memory' },
  { id: 'dreams', label: 'nav.dreams' },
  { id: 'schedule', label: 'nav.schedule' },
  { id: 'usage', label: 'nav.usage' },
  { id: 'skills', label: 'nav.skills' },
  { id: 'canvas', label: 'nav.canvas' },
  { id: 'terminal', label: 'nav.terminal' },
  { id: 'auth', label: 'nav.auth' },
  { id: 'devices', label: 'nav.devices' },
  { id: 'channels', label: 'nav.channels' },
  { id: 'mcp', label: 'nav.mcp' },
  { id: 'settings', label: 'nav.settings' },
];

/** The phone's bottom bar holds these; the rest sit behind "More". */
export const phoneTabs: ViewId[] = ['chat', 'approvals', 'memory', 'terminal'];
