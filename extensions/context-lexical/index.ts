export { bm25Scores, tokenize } from './bm25.js';
export {
  createLexicalEngineFactory,
  LEXICAL_CONTEXT_ENGINE_ID,
  LexicalContextEngine,
  type LexicalEngineOptions,
} from './lexical-engine.js';
export { contextLexicalPlugin, contextLexicalPlugin as default } from './plugin.js';
