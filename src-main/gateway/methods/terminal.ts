import { type Disposable, DisposableStore } from '../../base/disposable.js';
import { type TerminalManager, UnknownTerminalError } from '../../exec/index.js';
import { GatewayError } from '../../protocol/index.js';
import type { MethodRouter } from '../method-router.js';

export interface TerminalMethodsDeps {
  terminals: TerminalManager;
  /** The agent's workspace: where a terminal opens when no cwd is given. */
  workspaceDir(agentId: string): string;
  /** The filtered environment terminals start with (no inherited secrets). */
  env(): Record<string, string>;
}

/** `terminal.*`: terminals the UI attaches to; output comes back as `terminal.output` events. */
export function registerTerminalMethods(router: MethodRouter, deps: TerminalMethodsDeps): Disposable {
  const store = new DisposableStore();
  const guard = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof UnknownTerminalError)
        throw new GatewayError('NOT_FOUND', error.message, {
          reason: 'TERMINAL_NOT_FOUND',
          terminalId: error.terminalId,
        });
      if (error instanceof Error) throw new GatewayError('INVALID_REQUEST', error.message);
      throw error;
    }
  };

  store.add(
    router.handle('terminal.open', async (params) => {
      // A command is screened (the hard floor) by the bash parser, which loads on the first command.
      if (params.command !== undefined) await deps.terminals.ready();
      return guard(() =>
        deps.terminals.open({
          cwd: params.cwd ?? deps.workspaceDir(params.agentId ?? 'main'),
          env: deps.env(),
          ...(params.cols ? { cols: params.cols } : {}),
          ...(params.rows ? { rows: params.rows } : {}),
          ...(params.command !== undefined ? { command: params.command } : {}),
        }),
      );
    }),
  );
  store.add(
    router.handle('terminal.input', ({ terminalId, data }) =>
      guard(() => {
        deps.terminals.input(terminalId, data);
        return { ok: true as const };
      }),
    ),
  );
  store.add(
    router.handle('terminal.resize', ({ terminalId, cols, rows }) =>
      guard(() => {
        deps.terminals.resize(terminalId, cols, rows);
        return { ok: true as const };
      }),
    ),
  );
  store.add(
    router.handle('terminal.close', ({ terminalId }) =>
      guard(() => {
        deps.terminals.close(terminalId);
        return { ok: true as const };
      }),
    ),
  );
  store.add(router.handle('terminal.list', () => ({ terminals: deps.terminals.list() })));
  return store;
}
