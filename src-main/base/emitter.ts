import { type Disposable, toDisposable } from './disposable.js';

export type Event<T> = (listener: (event: T) => void) => Disposable;

/** Private emitter, public read-only `event`. Listeners must not throw; one that does is reported, not propagated. */
export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(event: T) => void>();
  /** Each listener's subscription, so that disposing the emitter releases them too (the leak check sees them go). */
  private readonly subscriptions = new Set<Disposable>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    const subscription = toDisposable(() => {
      this.listeners.delete(listener);
      this.subscriptions.delete(subscription);
    });
    this.subscriptions.add(subscription);
    return subscription;
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
    for (const subscription of [...this.subscriptions]) subscription.dispose();
    this.listeners.clear();
  }
}
