import { definePlugin } from '../../src-main/plugins/sdk/index.js';
import { createLexicalEngineFactory, type LexicalEngineOptions } from './lexical-engine.js';

/** Plugin entry: contributes the "lexical" context engine; select it per agent with `agents.<id>.contextEngine: "lexical"`. */
export const contextLexicalPlugin = definePlugin({
  id: 'context-lexical',
  name: 'Lexical context engine',
  register(api) {
    const recentTurns = api.config.recentTurns;
    if (
      recentTurns !== undefined &&
      (typeof recentTurns !== 'number' || !Number.isInteger(recentTurns) || recentTurns < 1)
    ) {
      throw new RangeError(
        `context-lexical config.recentTurns must be an integer ≥ 1, got ${JSON.stringify(recentTurns)}`,
      );
    }
    const options: LexicalEngineOptions = typeof recentTurns === 'number' ? { recentTurns } : {};
    api.registerContextEngine({
      id: 'lexical',
      description: 'Sends the last turns plus only the older turns relevant to the current message (BM25).',
      create: () => createLexicalEngineFactory(options),
    });
  },
});
