import { type Disposable, toDisposable } from './disposable.js';

export type Event<T> = (listener: (event: T) => void) => Disposable;

/** Private emitter, public read-only `event`. Listeners must not throw; one that does is reported, not propagated. */
export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(event: T) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  get listenerCount(): number {
    return this.listeners.size;
  }

  fire(event: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
