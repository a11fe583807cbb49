// Imports that break a rule of scripts/import-rules.mjs on purpose or for now, each with why.
// `npm run lint` fails on any other violation, and on an entry here that no longer occurs, so
// this list only shrinks. Format: "<importing file> -> <imported file>" (repo-relative).
export const importExceptions = new Set([
  // hearth.json's schema loads before the gateway listens (cold start ≤ 0.5 s): the host's
  // aggregation reads each capability's dependency-free schema module, not its index.ts, which
  // would pull in the whole capability.
  'src-main/host/hearth-config.ts -> src-main/agent/bootstrap/bootstrap-settings.js',
  'src-main/host/hearth-config.ts -> src-main/exec/exec-config.js',
  'src-main/host/hearth-config.ts -> src-main/memory/memory-config.js',
  'src-main/host/hearth-config.ts -> src-main/plugins/plugins-config.js',
  'src-main/host/hearth-config.ts -> src-main/providers/provider-config.js',
  'src-main/host/hearth-config.ts -> src-main/sessions/routing-config.js',
  // Migrations run before the gateway listens too: the permissions format reads exec's file
  // path and its converter of older files, not exec/index.ts (the whole command analysis).
  'src-main/migrations/store-formats.ts -> src-main/exec/older-permission-files.js',
  'src-main/migrations/store-formats.ts -> src-main/exec/permission-store.js',
  // The plugin SDK re-exports capability types for extensions (type-only: extensions see only the SDK).
  'src-main/plugins/sdk/memory.ts -> src-main/memory/memory-backend.js',
  'src-main/plugins/sdk/providers.ts -> src-main/providers/provider-registry.js',
  // Gateway tests that check the gateway against the shell's own origin and CSP (integration tests).
  'src-main/gateway/auth/origins.test.ts -> src-main/app/app-origin.js',
  'src-main/gateway/control-ui-config.test.ts -> src-main/host/start-hearth.js',
  'src-main/gateway/http-surface.test.ts -> src-main/app/csp.js',
  // Extension tests use base's silent logger (the SDK has no logger of its own yet).
  'extensions/context-lexical/lexical-engine.test.ts -> src-main/base/logger.js',
  'extensions/memory-lancedb/index.test.ts -> src-main/base/logger.js',
]);
