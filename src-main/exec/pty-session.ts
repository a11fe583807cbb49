import type { IPty, IPtyForkOptions } from 'node-pty';
import { type Disposable, DisposableStore, toDisposable } from '../base/disposable.js';
import { Emitter, type Event } from '../base/emitter.js';

/** `node-pty`'s spawn, injected (the composition root passes `pty.spawn`). */
export type PtySpawnFn = (file: string, args: string[], options: IPtyForkOptions) => IPty;

const PTY_DRAIN_QUIET_MS = 40;
const PTY_DRAIN_MAX_MS = 500;

export interface PtyExit {
  exitCode: number;
  signal?: number;
}

export interface PtySessionOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols?: number;
  rows?: number;
}

/**
 * One program in a pseudo-terminal: for TUIs, prompts and nested coding agents
 * that refuse to run without a TTY. It is a session leader, so `kill` takes its
 * whole process group with it.
 */
export class PtySession implements Disposable {
  private readonly store = new DisposableStore();
  private readonly data = this.store.add(new Emitter<string>());
  private readonly exit = this.store.add(new Emitter<PtyExit>());
  private exitInfo: PtyExit | undefined;
  private processGone = false;
  readonly onData: Event<string> = this.data.event;
  readonly onExit: Event<PtyExit> = this.exit.event;
  readonly exited: Promise<PtyExit>;
  private readonly pty: IPty;

  constructor(
    spawn: PtySpawnFn,
    options: PtySessionOptions,
    private readonly killGroup: (pid: number, signal: NodeJS.Signals) => void = (pid, signal) =>
      process.kill(-pid, signal),
  ) {
    this.pty = spawn(options.file, options.args, {
      name: 'xterm-256color',
      cols: options.cols ?? 80,
      rows: options.rows ?? 24,
      cwd: options.cwd,
      env: options.env,
    });
    this.exited = new Promise((resolve) => {
      let lastDataAt = Date.now();
      const dataListener = this.pty.onData((text) => {
        lastDataAt = Date.now();
        this.data.fire(text);
      });
      const exitListener = this.pty.onExit((info) => {
        this.processGone = true;
        const exitInfo: PtyExit = info.signal
          ? { exitCode: info.exitCode, signal: info.signal }
          : { exitCode: info.exitCode };
        // node-pty may report the exit before the program's last output has been read from the
        // terminal: wait until output has been quiet for a moment (at most half a second) so the
        // tail of what the program printed is never lost.
        const exitedAt = Date.now();
        const settle = () => {
          const now = Date.now();
          if (now - lastDataAt < PTY_DRAIN_QUIET_MS && now - exitedAt < PTY_DRAIN_MAX_MS) {
            setTimeout(settle, PTY_DRAIN_QUIET_MS);
            return;
          }
          this.exitInfo = exitInfo;
          this.exit.fire(exitInfo);
          resolve(exitInfo);
        };
        setTimeout(settle, PTY_DRAIN_QUIET_MS);
      });
      this.store.add(toDisposable(() => dataListener.dispose()));
      this.store.add(toDisposable(() => exitListener.dispose()));
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** The process is gone (its last output may still be draining; `exited` resolves after that). */
  get hasExited(): boolean {
    return this.processGone || this.exitInfo !== undefined;
  }

  write(data: string): void {
    if (!this.hasExited) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.hasExited) this.pty.resize(cols, rows);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.hasExited) return;
    try {
      this.killGroup(this.pty.pid, signal);
    } catch {
      this.pty.kill(signal);
    }
  }

  dispose(): void {
    this.kill();
    // The exit event still has to reach listeners; dispose the emitters once it did.
    void this.exited.then(() => this.store.dispose());
  }
}
