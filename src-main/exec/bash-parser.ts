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
