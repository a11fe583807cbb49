// Debug one query: `npx tsx eval/memory/debug-query.ts "standup time"` prints the offline engine's top 10 with its scores.
import { createHashedEmbedder } from '../../src-main/memory/embedders/hashed-embedder.js';
import { evalHome, openEngine } from './run-eval.js';

const query = process.argv[2] ?? '';
const { home, cleanup } = await evalHome();
try {
  const engine = await openEngine(home, createHashedEmbedder(384));
  for (const hit of await engine.search(query, { scope: engine.defaultScope(), k: 10, record: false }))
    console.log(
      `${hit.score.toFixed(3)} v=${hit.vectorScore.toFixed(2)} t=${hit.textScore.toFixed(2)} d=${hit.decay.toFixed(2)} ${hit.path}:${hit.startLine} ${hit.snippet.slice(0, 90)}`,
    );
  await engine.close();
} finally {
  await cleanup();
}
