import { randomUUID } from 'node:crypto';
import { type Disposable, DisposableStore } from '../base/disposable.js';
import type { EventSink } from '../protocol/events.js';
import type { TerminalOpenResult } from '../protocol/methods/terminal.js';
import type { Finding } from './analysis-types.js';
import { type PtySession, type PtySpawnFn, PtySession as Session } from './pty-session.js';

/** The events terminals publish; the gateway's EventBus satisfies this. */
export type TerminalEventSink = EventSink<'terminal.output' | 'terminal.exit'>;

/** What `terminal.open` / `terminal.list` answer, as the protocol defines it. */
export type TerminalInfo = TerminalOpenResult;

export interface TerminalOpenOptions {
  cwd: string;
  env: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Runs this (via `shell -c`) instead of an interactive shell. */
  command?: string;
}

export interface TerminalManagerDeps {
  spawnPty: PtySpawnFn;
  events: TerminalEventSink;
  /** The interactive shell (`/bin/bash`). */
  shell: string;
  newId?: () => string;
  /** Cap on open terminals: each is a live process. */
  maxTerminals?: number;
  killGroup?: (pid: number, signal: NodeJS.Signals) => void;
  /**
   * The hard floor (createCommandScreen): a terminal opened with a command on the
   * floor is refused, like every other path that runs a command string.
   */
  screen: (command: string, cwd: string) => Finding[];
  /** Resolves once `screen` can run (the host's bash parser loads on the first command). */
  screenReady?: () => Promise<void> | undefined;
}

interface Entry {
  info: TerminalInfo;
  session: PtySession;
  store: DisposableStore;
}

/**
 * Terminal sessions the user attaches to from the UI (`terminal.*` methods).
 * Output streams as `terminal.output` events with a per-terminal sequence number,
 * so a client can spot a gap; the end is one `terminal.exit`.
 */
export class TerminalManager implements Disposable {
  private readonly terminals = new Map<string, Entry>();

  constructor(private readonly deps: TerminalManagerDeps) {}

  /** Resolves once `open` can screen a command; the terminal.open method awaits it first. */
  ready(): Promise<void> | undefined {
    return this.deps.screenReady?.();
  }

  open(options: TerminalOpenOptions): TerminalInfo {
    if (this.terminals.size >= (this.deps.maxTerminals ?? 16))
      throw new Error(`too many open terminals (${this.terminals.size}); close one first`);
    if (options.command !== undefined) {
      const floor = this.deps.screen(options.command, options.cwd).filter((found) => found.severity === 'deny');
      if (floor.length > 0) throw new HardFloorError(floor);
    }
    const terminalId = (this.deps.newId ?? randomUUID)();
    const cols = options.cols ?? 80;
    const rows = options.rows ?? 24;
    const session = new Session(
      this.deps.spawnPty,
      {
        file: this.deps.shell,
        args: options.command === undefined ? ['-i'] : ['-c', options.command],
        cwd: options.cwd,
        env: { ...options.env, TERM: 'xterm-256color' },
        cols,
        rows,
      },
      this.deps.killGroup,
    );
    const info: TerminalInfo = { terminalId, pid: session.pid, cols, rows, cwd: options.cwd, shell: this.deps.shell };
    const store = new DisposableStore();
    let seq = 0;
    store.add(session.onData((data) => this.deps.events.publish('terminal.output', { terminalId, data, seq: ++seq })));
    store.add(
      session.onExit((exit) => {
        this.deps.events.publish('terminal.exit', {
          terminalId,
          exitCode: exit.exitCode,
          signal: exit.signal ?? null,
        });
        this.terminals.delete(terminalId);
        store.dispose();
        // Its process is gone and its last output delivered: release the session's own emitters.
        session.dispose();
      }),
    );
    this.terminals.set(terminalId, { info, session, store });
    return info;
  }

  list(): TerminalInfo[] {
    return [...this.terminals.values()].map((entry) => entry.info);
  }

  input(terminalId: string, data: string): void {
    this.get(terminalId).session.write(data);
  }

  resize(terminalId: string, cols: number, rows: number): void {
    const entry = this.get(terminalId);
    entry.session.resize(cols, rows);
    entry.info.cols = cols;
    entry.info.rows = rows;
  }

  /** Kills the terminal's process group; `terminal.exit` follows. */
  close(terminalId: string): void {
    this.get(terminalId).session.kill();
  }

  has(terminalId: string): boolean {
    return this.terminals.has(terminalId);
  }

  dispose(): void {
    for (const entry of this.terminals.values()) {
      entry.store.dispose();
      entry.session.dispose();
    }
    this.terminals.clear();
  }

  private get(terminalId: string): Entry {
    const entry = this.terminals.get(terminalId);
    if (!entry) throw new UnknownTerminalError(terminalId);
    return entry;
  }
}

/** A command string on the hard floor: refused on every path, whoever asks. */
export class HardFloorError extends Error {
  constructor(readonly findings: Finding[]) {
    super(`refused by the hard floor: ${findings.map((finding) => `${finding.code}: ${finding.detail}`).join('; ')}`);
    this.name = 'HardFloorError';
  }
}

export class UnknownTerminalError extends Error {
  constructor(readonly terminalId: string) {
    super(`unknown terminal ${terminalId} (closed or never opened)`);
    this.name = 'UnknownTerminalError';
  }
}
