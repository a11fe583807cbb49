import type { Disposable } from '../base/index.js';
import type { GatewaysView } from '../protocol/desktop-gateways.js';

/** The gateway the desktop uses, as the shell's parts need it: its id, and its name when it is another machine's. */
export interface SelectedGateway {
  id: string;
  /** Undefined for this computer's own gateway. */
  remoteName?: string;
}

export function selectedGateway(view: GatewaysView): SelectedGateway {
  const remote = view.gateways.find((gateway) => gateway.id === view.active);
  if (!remote) return { id: 'local' };
  return { id: remote.id, remoteName: remote.name ?? hostOf(remote.url) };
}

/**
 * Runs `start` for the gateway in use and again each time the person switches (disposing what the
 * previous one started), so the tray's Pause, the run notifications and the approval box follow
 * the selected gateway rather than staying on this computer's.
 */
export function followSelectedGateway(
  switcher: { readonly view: GatewaysView; onDidChange(listener: (view: GatewaysView) => void): Disposable },
  start: (selected: SelectedGateway) => Disposable,
): Disposable {
  let current = selectedGateway(switcher.view);
  let running = start(current);
  const changes = switcher.onDidChange((view) => {
    const next = selectedGateway(view);
    if (next.id === current.id && next.remoteName === current.remoteName) return;
    running.dispose();
    current = next;
    running = start(current);
  });
  return {
    dispose() {
      changes.dispose();
      running.dispose();
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
