// Explicit lifetimes: whatever holds a listener, timer, socket, PTY or DB handle
// returns a Disposable that its owner adds to a store at once.

export interface Disposable {
  dispose(): void;
}

export interface AsyncDisposable {
  dispose(): Promise<void> | void;
}

/**
 * Tests install a tracker (src-main/testing/leak-check.ts) to fail a test that leaves a
 * Disposable undisposed; in the product it stays unset and costs one check per creation.
 */
export interface DisposableTracker {
  created(disposable: Disposable): void;
  disposed(disposable: Disposable): void;
}

let tracker: DisposableTracker | undefined;

/** Installs `next` and returns the tracker it replaces, so a nested check can hand events on and put it back. */
export function setDisposableTracker(next: DisposableTracker | undefined): DisposableTracker | undefined {
  const previous = tracker;
  tracker = next;
  return previous;
}

export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  const disposable = {
    dispose() {
      if (done) return;
      done = true;
      tracker?.disposed(disposable);
      dispose();
    },
  };
  tracker?.created(disposable);
  return disposable;
}

/** Disposes what it holds in reverse order of addition; adding after disposal disposes at once. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  constructor() {
    tracker?.created(this);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
      return item;
    }
    this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    tracker?.disposed(this);
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'errors while disposing');
  }
}

/** Like DisposableStore but awaits each item; used by the composition root for graceful shutdown. */
export class AsyncDisposableStore implements AsyncDisposable {
  private readonly items: AsyncDisposable[] = [];
  private disposing: Promise<void> | undefined;

  get isDisposed(): boolean {
    return this.disposing !== undefined;
  }

  add<T extends AsyncDisposable>(item: T): T {
    if (this.disposing) {
      void item.dispose();
      return item;
    }
    this.items.push(item);
    return item;
  }

  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      const errors: unknown[] = [];
      for (const item of this.items.splice(0).reverse()) {
        try {
          await item.dispose();
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length > 0) throw new AggregateError(errors, 'errors while disposing');
    })();
    return this.disposing;
  }
}
