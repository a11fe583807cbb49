/**
 * Runs async jobs one at a time per key, in the order they were queued; different
 * keys run concurrently. The store uses it so two appends to one transcript (or two
 * writes of one agent's index) never interleave.
 */
export interface KeyedSerializer {
  run<T>(key: string, job: () => Promise<T>): Promise<T>;
  /** Resolves once every job queued so far has settled. */
  idle(): Promise<void>;
}

export function createKeyedSerializer(): KeyedSerializer {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, job: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      // A failed job must not poison the queue behind it.
      const result = previous.then(job, job);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    async idle(): Promise<void> {
      while (tails.size > 0) await Promise.all([...tails.values()]);
    },
  };
}
