// Dev tool: `npx tsx src-main/testing/fake-llm/serve.ts [port]` serves an echo model on loopback,
// so the app can be run end to end without a provider account.
import { startFakeLlmServer } from './fake-llm-server.js';
import { echoReply } from './scenario.js';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`fake-llm: invalid port "${process.argv[2]}" (expected 0-65535)\n`);
  process.exit(2);
}
const server = await startFakeLlmServer({
  port,
  defaultReply: (request) => (request.toolResultCount > 0 ? { type: 'text', text: 'done.' } : echoReply(request)),
});
process.stdout.write(
  [
    `fake-llm listening on ${server.url}`,
    `  openai:    ${server.baseUrlFor('openai')}`,
    `  anthropic: ${server.baseUrlFor('anthropic')}`,
    `  google:    ${server.baseUrlFor('google')}`,
    `  ollama:    ${server.baseUrlFor('ollama')}`,
    '',
  ].join('\n'),
);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
