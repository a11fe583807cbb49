// The layer table of docs/ARCHITECTURE.md as a machine checks it (`npm run lint` runs
// scripts/check-imports.mjs, which applies these rules to every .ts/.tsx file of the repo).
// A rule names who imports (`from`, a path prefix) and what it may not import.

/** Folders of src-main that are capabilities: used by others only through their index.ts. */
export const capabilities = [
  'agent',
  'config',
  'exec',
  'memory',
  'migrations',
  'plugins',
  'providers',
  'secrets',
  'sessions',
];

const above = (...folders) => folders.map((folder) => `src-main/${folder}/`);

export const layerRules = [
  {
    name: 'product code never imports test support (src-main/testing is not shipped)',
    from: ['src-main/', 'src-preload/', 'src-renderer/', 'extensions/'],
    forbid: (target) => target.startsWith('src-main/testing/'),
  },
  {
    name: 'base is the floor',
    from: ['src-main/base/'],
    forbid: (target) => target.startsWith('src-main/') && !target.startsWith('src-main/base/'),
  },
  {
    name: 'protocol imports only base',
    from: ['src-main/protocol/'],
    forbid: (target) =>
      target.startsWith('src-main/') &&
      !target.startsWith('src-main/base/') &&
      !target.startsWith('src-main/protocol/'),
  },
  {
    name: 'transcript imports only base',
    from: ['src-main/transcript/'],
    forbid: (target) =>
      target.startsWith('src-main/') &&
      !target.startsWith('src-main/base/') &&
      !target.startsWith('src-main/transcript/'),
  },
  {
    // hearth.json's service is generic: the host passes the merge of every capability's section
    // (host/hearth-config.ts), so a capability's settings never need config/ to know it.
    name: 'config knows no capability (the schema aggregation lives in host/hearth-config.ts)',
    from: ['src-main/config/'],
    forbid: (target) =>
      target.startsWith('src-main/') &&
      !['src-main/base/', 'src-main/fs/', 'src-main/config/'].some((prefix) => target.startsWith(prefix)),
  },
  {
    name: 'capabilities never import the gateway, the host or a shell',
    from: [
      ...capabilities.map((c) => `src-main/${c}/`),
      'src-main/tools/',
      'src-main/fs/',
      'src-main/logging/',
      // They edit hearth.json through their own view schemas, never the host's aggregation.
      'src-main/roster/',
      'src-main/import/',
    ],
    forbid: (target) => above('gateway', 'host', 'app', 'cli').some((prefix) => target.startsWith(prefix)),
  },
  {
    name: 'the gateway never imports the host or a shell',
    from: ['src-main/gateway/'],
    forbid: (target) => above('host', 'app', 'cli').some((prefix) => target.startsWith(prefix)),
  },
  {
    name: 'the host never imports a shell',
    from: ['src-main/host/'],
    forbid: (target) => above('app', 'cli').some((prefix) => target.startsWith(prefix)),
  },
  {
    name: 'the CLI never imports the Electron shell',
    from: ['src-main/cli/'],
    forbid: (target) => target.startsWith('src-main/app/'),
  },
  {
    name: 'the renderer imports only protocol of src-main',
    from: ['src-renderer/'],
    forbid: (target) => target.startsWith('src-main/') && !target.startsWith('src-main/protocol/'),
  },
  {
    name: 'extensions import only the plugin SDK and protocol',
    from: ['extensions/'],
    forbid: (target) =>
      target.startsWith('src-main/') &&
      !target.startsWith('src-main/plugins/sdk/') &&
      !target.startsWith('src-main/protocol/'),
  },
];

/** Only the Electron shell and the preload touch Electron. */
export const electronAllowed = ['src-main/app/', 'src-preload/', 'e2e/'];
