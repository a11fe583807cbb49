import { createRequire } from 'node:module';
import { Language, type Node, Parser } from 'web-tree-sitter';

/**
 * The bash grammar, loaded once per process. tree-sitter-bash is the parser the
 * editors use: it understands substitutions, process substitution, heredocs and
 * function definitions, which the pure-JS parsers on npm reject (DEPENDENCIES.md).
 */
export interface BashParser {
  /**
   * Parses `source` and hands the root node to `visit`; the tree lives in WASM
   * memory, so it is freed as soon as `visit` returns and nodes must not escape.
   */
  withTree<T>(source: string, visit: (root: Node) => T): T;
  /**
   * A parser that loads on first use (lazyBashParser): a promise that resolves once it can parse,
   * or undefined when it already can (so a loaded parser costs its callers no extra tick). Every
   * async path that parses awaits it first. A parser loaded up front has none.
   */
  ready?(): Promise<void> | undefined;
}

/** A command reached the parser before its grammar loaded: refused, never passed unparsed. */
export class BashParserNotReadyError extends Error {
  constructor() {
    super('the bash parser has not loaded yet; the command was not checked, so it is refused');
    this.name = 'BashParserNotReadyError';
  }
}

/**
 * The bash parser for the host: nothing loads until the first `ready()` (the first command
 * checked), so web-tree-sitter, its WASM and the grammar (~35 ms and ~10 MB at a cold start)
 * stay off the path to Ready and out of the idle process. `withTree` before the load has
 * finished throws BashParserNotReadyError: deny by default, never an unparsed pass.
 */
export function lazyBashParser(load: () => Promise<BashParser> = loadBashParser): BashParser & {
  ready(): Promise<void> | undefined;
} {
  let loaded: BashParser | undefined;
  let pending: Promise<void> | undefined;
  return {
    ready() {
      if (loaded) return undefined;
      pending ??= load().then(
        (parser) => {
          loaded = parser;
        },
        (error: unknown) => {
          // The next command tries again (loadBashParser does not cache a failed load either).
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    withTree(source, visit) {
      if (!loaded) throw new BashParserNotReadyError();
      return loaded.withTree(source, visit);
    },
  };
}

let loading: Promise<BashParser> | undefined;

export function loadBashParser(): Promise<BashParser> {
  loading ??= (async () => {
    await Parser.init();
    const require = createRequire(import.meta.url);
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return {
      withTree(source, visit) {
        const tree = parser.parse(source);
        if (!tree) throw new Error('bash parser returned no tree');
        try {
          return visit(tree.rootNode);
        } finally {
          tree.delete();
        }
      },
    };
  })();
  // A failed load (missing wasm) must be retried by the next caller, not cached forever.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

export type { Node as SyntaxNode };
