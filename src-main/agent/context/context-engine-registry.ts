import type { ContextEngineFactory } from './context-engine.js';
import { LINEAR_CONTEXT_ENGINE_ID, linearContextEngineFactory } from './linear-engine.js';

/**
 * Engines by id: the built-in "linear" plus whatever plugins contribute. Agents choose one in
 * config (`agents.<id>.contextEngine`); an unknown id is a config error that names the choices.
 */
export interface ContextEngineRegistry {
  register(factory: ContextEngineFactory): { dispose(): void };
  get(id: string | undefined): ContextEngineFactory;
  ids(): string[];
}

export function createContextEngineRegistry(): ContextEngineRegistry {
  const factories = new Map<string, ContextEngineFactory>([[LINEAR_CONTEXT_ENGINE_ID, linearContextEngineFactory]]);
  return {
    register(factory) {
      if (factories.has(factory.id)) throw new Error(`context engine "${factory.id}" is already registered`);
      factories.set(factory.id, factory);
      return {
        dispose() {
          if (factories.get(factory.id) === factory) factories.delete(factory.id);
        },
      };
    },
    get(id) {
      const factory = factories.get(id ?? LINEAR_CONTEXT_ENGINE_ID);
      if (!factory) {
        throw new Error(
          `unknown context engine "${id}" (agents.<id>.contextEngine); available: ${[...factories.keys()].sort().join(', ')}`,
        );
      }
      return factory;
    },
    ids: () => [...factories.keys()].sort(),
  };
}
