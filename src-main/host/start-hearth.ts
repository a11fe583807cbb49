import { mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { appRootFrom } from '../base/app-root.js';
import { type Clock, systemClock } from '../base/clock.js';
import { AsyncDisposableStore, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalPrompter } from '../exec/index.js';
import { ApiTokenStore } from '../gateway/auth/api-tokens.js';
import { BootstrapTokenStore } from '../gateway/auth/bootstrap-tokens.js';
import { DeviceRegistry } from '../gateway/auth/device-registry.js';
import { loadOrCreateGatewayToken } from '../gateway/auth/gateway-secret.js';
import { loadOrCreateTlsIdentity, type TlsIdentity } from '../gateway/auth/tls-identity.js';
import { GatewayCore } from '../gateway/gateway-core.js';
import {
  type GatewayServer,
  isLoopbackAddress,
  PortInUseError,
  startGatewayServer,
} from '../gateway/gateway-server.js';
import { registerConfigMethods } from '../gateway/methods/config.js';
import { type LanEndpoint, registerDevicesMethods } from '../gateway/methods/devices.js';
import { registerGatewayMethods } from '../gateway/methods/gateway.js';
import { registerTokensMethods } from '../gateway/methods/tokens.js';
import { createFileLogger } from '../logging/create-logger.js';
import { prepareStartUpgrade, type StartUpgrade } from '../migrations/index.js';
import { configuredWorkspace, createHearthPaths, type HearthPaths } from '../paths/index.js';
import type { SecretStore } from '../secrets/index.js';
import { configuredAgentIds } from './agent-roster.js';
import { watchCanvas } from './canvas-watcher.js';
import type { Capabilities } from './compose-capabilities.js';
import { type HearthConfigService, openHearthConfig } from './hearth-config.js';
import type { HearthHost } from './hearth-host.js';
import { lanUrls } from './lan-addresses.js';
import { HEARTH_VERSION } from './version.js';
import { wireOpenAiApi } from './wire-openai-api.js';

export interface StartHearthOptions {
  home: string;
  /** 0 picks a free port. Defaults to config `gateway.port` (18790). */
  port?: number;
  /** 'loopback' | 'lan' | an address. Defaults to config `gateway.bind`. */
  bind?: string;
  /** Overrides the stored gateway token. */
  token?: string;
  clock?: Clock;
  log?: Logger;
  /** Where the built Control UI lives; defaults to dist/renderer beside the package. */
  controlUiDir?: string;
  tickIntervalMs?: number;
  env?: Record<string, string | undefined>;
  /** Overrides config gateway.lan.bind (tests bind the LAN listener to loopback). */
  lanBind?: string;
  /** Native approval dialogs (desktop) and other answering surfaces. */
  approvalPrompters?: ApprovalPrompter[];
  /** A secret store chosen by the shell; default: OS keychain, else an announced encrypted file. */
  secretStore?: SecretStore;
  /** false: only the gateway (health, config, devices) — for tools that need nothing more. */
  capabilities?: boolean;
}

export function resolveBindAddress(bind: string): string {
  if (bind === 'loopback') return '127.0.0.1';
  if (bind === 'lan') return '0.0.0.0';
  return bind;
}

/** The app's folder (resources/, extensions/, dist/), from the sources, the build or the bundle. */
export function appRoot(): string {
  return appRootFrom(import.meta.url);
}

export function defaultControlUiDir(): string {
  return join(appRoot(), 'dist', 'renderer');
}

/**
 * gateway.controlUi.root (relative to HEARTH_HOME, `~` for the user's home), else Hearth's own
 * UI. A configured folder without an index.html is refused at start, not served as a 404.
 */
export async function controlUiRoot(root: string | undefined, home: string): Promise<string> {
  if (!root) return defaultControlUiDir();
  const dir = root === '~' || root.startsWith('~/') ? join(homedir(), root.slice(1)) : resolve(home, root);
  const index = await stat(join(dir, 'index.html')).catch(() => undefined);
  if (!index?.isFile()) throw new Error(`gateway.controlUi.root: ${dir} has no index.html (is it a built Control UI?)`);
  return dir;
}

/**
 * Composes the whole core — config, identity, gateway, capabilities — and starts
 * listening. `hearth gateway run` and the Electron main process both call this.
 */
export async function startHearth(options: StartHearthOptions): Promise<HearthHost> {
  const clock = options.clock ?? systemClock;
  // An agent's workspace may be configured (agents.list[].workspace): read from the live config.
  let liveConfig: HearthConfigService | undefined;
  const paths: HearthPaths = createHearthPaths(options.home, {
    workspaceOf: (agentId) => configuredWorkspace(liveConfig?.current.agents, agentId),
  });
  await mkdir(paths.home, { recursive: true, mode: 0o700 });
  const root = new AsyncDisposableStore();
  try {
    // Filled once the gateway token is known: the log replaces it wherever it appears.
    const logSecrets: string[] = [];
    const bootLog = options.log ?? createFileLogger(paths.logsDir, 'gateway', 'info', () => logSecrets);
    // Before anything reads the home: a crash-twice restore, the newer-file refusal, migrations (docs/UPGRADES.md).
    const upgrade = await prepareStartUpgrade({ paths, clock, log: bootLog, appVersion: HEARTH_VERSION });
    const config = root.add(await openHearthConfig({ path: paths.configFile, clock, log: bootLog }));
    liveConfig = config;
    const log =
      options.log ?? createFileLogger(paths.logsDir, 'gateway', config.current.logging.level, () => logSecrets);
    const gatewayConfig = config.current.gateway;
    const controlUiDir = options.controlUiDir ?? (await controlUiRoot(gatewayConfig.controlUi.root, paths.home));

    const token = options.token ?? (await loadOrCreateGatewayToken(paths.identityDir)).token;
    logSecrets.push(token);
    // Password mode: the password lives in the secret store (never hearth.json), or comes from the environment.
    const gatewayPassword = async (): Promise<string | undefined> => {
      if (gatewayConfig.auth.mode !== 'password') return undefined;
      const fromEnv = options.env?.HEARTH_GATEWAY_PASSWORD;
      if (fromEnv) return fromEnv;
      const name = gatewayConfig.auth.passwordSecret ?? 'gateway-password';
      const store =
        options.secretStore ??
        (await (await import('../secrets/index.js')).openSecretStore({ paths, log, env: options.env ?? {} })).store;
      const password = await store.get(name);
      if (!password) {
        throw new Error(
          `gateway.auth.mode is "password" but no password is stored under "${name}": set HEARTH_GATEWAY_PASSWORD or store it in the keychain`,
        );
      }
      return password;
    };
    const devices = await DeviceRegistry.open(paths.identityDir, clock, log);
    const apiTokens = await ApiTokenStore.open(paths.identityDir, clock, log);
    const host = resolveBindAddress(options.bind ?? gatewayConfig.bind);
    const needsTls = !isLoopbackAddress(host) || gatewayConfig.tls.enabled;
    let tls: TlsIdentity | undefined;
    if (needsTls) tls = await loadOrCreateTlsIdentity(paths.identityDir, gatewayConfig.tls.hostnames);

    let capabilities: Capabilities | undefined;
    const bootstrap = new BootstrapTokenStore(clock);
    const core = new GatewayCore({
      bootstrap,
      clock,
      log: log.child({ part: 'gateway' }),
      version: HEARTH_VERSION,
      auth: { mode: gatewayConfig.auth.mode, token, password: await gatewayPassword() },
      devices,
      apiTokens,
      tickIntervalMs: options.tickIntervalMs ?? gatewayConfig.tickIntervalMs,
      writeBudget: gatewayConfig.writeBudget,
    });
    root.add(toDisposable(() => core.dispose()));
    core.statusSections.upgrades = () => upgrade.report;

    const canvasDir = join(paths.workspaceDir('main'), 'canvas');
    await mkdir(canvasDir, { recursive: true });
    root.add(watchCanvas(canvasDir, core.bus, clock, log));
    let serverInfo = { host, port: 0 };
    root.add(
      registerGatewayMethods(core.registry, {
        core,
        clock,
        home: paths.home,
        bind: () => ({ ...serverInfo, tls: tls !== undefined, tlsFingerprint: tls?.fingerprint256 }),
        // Every configured agent (main plus agents.list), as config says now.
        agents: () =>
          configuredAgentIds(config.current.agents).map((id) => {
            const name = config.current.agents.list.find((agent) => agent.id === id)?.name;
            return name ? { id, name } : { id };
          }),
        sessionCount: () => capabilities?.sessionCount() ?? 0,
        secrets: () =>
          capabilities
            ? { backend: capabilities.secrets.backend, warning: capabilities.secrets.warning }
            : { backend: 'starting' },
      }),
    );
    root.add(registerConfigMethods(core.registry, config));
    // The HTTP APIs (OpenAI-compatible, MCP at /mcp) answer from the first moment: while capabilities
    // load, a turn is refused as "starting" (503), not served the Control UI's page.
    root.add(wireOpenAiApi({ core, config, clock, log }));

    // Pairing a phone needs a remote-facing, TLS-only listener; it starts on demand.
    let lanServer: Promise<GatewayServer> | undefined;
    const routes = {
      controlUiDir,
      canvasDir: () => canvasDir,
      version: HEARTH_VERSION,
    };
    const ensureLan = async (): Promise<LanEndpoint> => {
      tls ??= await loadOrCreateTlsIdentity(paths.identityDir, gatewayConfig.tls.hostnames);
      const identity = tls;
      const startLan = (port: number) =>
        startGatewayServer({
          core,
          host: options.lanBind ?? gatewayConfig.lan.bind,
          port,
          tls: { cert: identity.cert, key: identity.key },
          routes,
          log,
          treatPeersAsRemote: true,
          hostnames: gatewayConfig.tls.hostnames,
        });
      const preferred = gatewayConfig.lan.port || serverInfo.port + 1;
      lanServer ??= startLan(preferred)
        .catch((error) => {
          // An explicitly configured port is the user's choice: report it. Our default (main + 1) may move.
          if (!(error instanceof PortInUseError) || gatewayConfig.lan.port) throw error;
          log.warn('LAN port in use; using a free one', { port: preferred });
          return startLan(0);
        })
        .catch((error) => {
          lanServer = undefined;
          throw error;
        });
      const server = await lanServer;
      return { urls: lanUrls(server.host, server.port), tlsFingerprint: identity.fingerprint256 };
    };
    root.add({ dispose: async () => (await lanServer?.catch(() => undefined))?.close() });
    root.add(registerDevicesMethods(core.registry, { core, bootstrap, clock, ensureLan }));
    root.add(registerTokensMethods(core.registry, apiTokens));
    root.add(
      config.onDidChangeAny((change) =>
        core.bus.publish('config.changed', { hash: change.hash, changedPrefixes: change.changedPaths }),
      ),
    );
    root.add(config.onDidError((problem) => core.bus.publish('config.error', problem)));

    const server = await startGatewayServer({
      core,
      host,
      port: options.port ?? gatewayConfig.port,
      tls: tls ? { cert: tls.cert, key: tls.key } : undefined,
      routes,
      log,
      hostnames: gatewayConfig.tls.hostnames,
    });
    serverInfo = { host, port: server.port };
    // Disposal runs in reverse: the server stops taking sockets before the core goes away.
    root.add({ dispose: () => server.close() });
    if (gatewayConfig.lan.enabled) await ensureLan();

    // Capabilities load after the port is open: clients can connect (and see "starting") at once.
    let ready: Promise<void> = Promise.resolve();
    if (options.capabilities !== false) {
      core.registry.setStarting(true);
      ready = import('./compose-capabilities.js')
        .then((module) =>
          module.composeCapabilities({
            core,
            config,
            paths,
            clock,
            log,
            env: options.env ?? {},
            appRoot: appRoot(),
            approvalPrompters: options.approvalPrompters,
            secretStore: options.secretStore,
            gatewayUrl: () => server.url,
          }),
        )
        .then((composed) => {
          capabilities = composed;
        })
        .then(() => markUp(upgrade, log))
        .finally(() => core.registry.setStarting(false));
      ready.catch((error) =>
        log.error('capabilities failed to start', { error: String(error), stack: (error as Error).stack }),
      );
      // Disposed after the gateway stopped taking work and before the server closes: turns abort, PTYs close, memory flushes.
      root.add({
        dispose: async () => {
          await ready.catch(() => {});
          await capabilities?.dispose();
        },
      });
    } else await markUp(upgrade, log);
    root.add({ dispose: () => core.shutdown() });

    return {
      paths,
      url: server.url,
      port: server.port,
      token,
      tlsFingerprint: tls?.fingerprint256,
      gateway: core,
      ensureLan,
      wake: () => capabilities?.wake(),
      ready,
      dispose: () => root.dispose(),
    };
  } catch (error) {
    await root.dispose().catch(() => {});
    throw error;
  }
}

/** The start came up: its marker goes (a failure to clear it only costs a false "did not start" count). */
async function markUp(upgrade: StartUpgrade, log: Logger): Promise<void> {
  await upgrade.markUp().catch((error) => log.warn('could not clear the start marker', { error: String(error) }));
}
