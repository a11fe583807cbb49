import { definePlugin } from '../../src-main/plugins/sdk/index.js';
import { claudeCodeBackend } from './claude-code.js';
import { codexBackend } from './codex.js';

export { claudeCodeBackend } from './claude-code.js';
export { codexBackend } from './codex.js';

/** Plugin entry: the "claude-code" and "codex" engines; an agent picks one with `engine: { cli: "<id>" }`. */
const cliBackendsPlugin = definePlugin({
  id: 'cli-backends',
  name: 'CLI backends',
  register(api) {
    for (const backend of [claudeCodeBackend, codexBackend]) {
      api.registerCliBackend({ id: backend.id, description: backend.label, create: () => backend });
    }
  },
});

export { cliBackendsPlugin };
export default cliBackendsPlugin;
