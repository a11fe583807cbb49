import type { Command } from 'commander';
import { loadOrCreateGatewayToken } from '../../gateway/auth/gateway-secret.js';
import { InsecureBindError, PortInUseError } from '../../gateway/gateway-server.js';
import type { HearthHost } from '../../host/hearth-host.js';
import { startHearth } from '../../host/start-hearth.js';
import type { GatewayClient } from '../../protocol/client/index.js';
import { GatewayError } from '../../protocol/index.js';
import { createPlatformOpener } from '../browser-opener.js';
import { type CliContext, CliError } from '../cli-context.js';

export interface RunningGateway {
  host: HearthHost;
  /** Resolves when the gateway has stopped (signal or dispose). */
  stopped: Promise<void>;
}

function parsePort(text: string | undefined, env: Record<string, string | undefined>): number | undefined {
  const value = text ?? env.HEARTH_PORT;
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new CliError(`invalid port "${value}": expected a whole number from 0 to 65535`);
  return port;
}

/** Starts the gateway; with `findFreePort`, a busy port moves to the next one (npm start), else it is reported plainly. */
export async function runGateway(
  context: CliContext,
  options: { port?: string; bind?: string; token?: string; findFreePort?: boolean },
): Promise<HearthHost> {
  const paths = context.paths();
  const requested = parsePort(options.port, context.env);
  const bind = options.bind;
  if (bind !== undefined && bind !== 'loopback' && bind !== 'lan' && !/^[\d.:a-fA-F]+$/.test(bind)) {
    throw new CliError(`invalid --bind "${bind}": use loopback, lan or an IP address`);
  }
  let port = requested;
  for (let attempt = 0; ; attempt++) {
    try {
      return await startHearth({ home: paths.home, port, bind, token: options.token, env: context.env });
    } catch (error) {
      if (error instanceof PortInUseError) {
        if (!options.findFreePort || attempt >= 20) {
          throw new CliError(
            `port ${error.port} is already in use. Stop the other program, or choose another port with --port or HEARTH_PORT.`,
          );
        }
        context.stderr(`Port ${error.port} is in use; trying ${error.port + 1}.\n`);
        port = error.port + 1;
        continue;
      }
      if (error instanceof InsecureBindError)
        throw new CliError(`${error.message}. Enable gateway.tls in hearth.json or bind to loopback.`);
      throw error;
    }
  }
}

/** The Control UI link that signs the browser in: the token rides in the fragment, which never reaches a server log. */
export function signInUrl(host: Pick<HearthHost, 'url' | 'token'>): string {
  return `${browserUrl(host.url)}/#token=${encodeURIComponent(host.token)}`;
}

/** A listener on every interface is reached from this machine's browser over loopback (browsers block 0.0.0.0). */
function browserUrl(url: string): string {
  return url.replace(/^(https?:\/\/)(?:0\.0\.0\.0|\[::\])(?=:)/, '$1127.0.0.1');
}

const HOW_TO_SIGN_IN =
  'paste the token from `hearth gateway token`, or start with `hearth gateway run --print-url` for a sign-in link';

/**
 * What `gateway run` prints. The token itself only with `--print-url`: stdout ends up in
 * terminal scrollback, CI logs and screen shares, and the token is the key to everything.
 */
export function announce(context: CliContext, host: HearthHost, options: { printUrl?: boolean } = {}): void {
  context.stdout(`Hearth gateway listening on ${host.url}\n`);
  context.stdout(`  WebSocket:   ${host.url.replace(/^http/, 'ws')}\n`);
  if (options.printUrl) {
    context.stdout(`  Control UI:  ${signInUrl(host)}\n`);
    context.stdout('               (this link holds the gateway token: do not share it)\n');
  } else {
    context.stdout(`  Control UI:  ${browserUrl(host.url)}/\n`);
    context.stdout(`  Sign in:     ${HOW_TO_SIGN_IN}\n`);
  }
  context.stdout(`  Home:        ${host.paths.home}\n`);
  if (host.tlsFingerprint) context.stdout(`  TLS pin:     sha256:${host.tlsFingerprint}\n`);
}

/** `--open`: the sign-in link goes to the person's browser, not to stdout. */
export async function openControlUi(context: CliContext, host: HearthHost): Promise<boolean> {
  const opener = context.openUrl ?? createPlatformOpener({ platform: process.platform, env: context.env });
  const result = await opener(signInUrl(host));
  if (result.ok) {
    context.stdout('Opened the Control UI in your browser.\n');
    return true;
  }
  context.stderr(`Could not open a browser (${result.reason}). Open ${browserUrl(host.url)}/ and ${HOW_TO_SIGN_IN}.\n`);
  return false;
}

export function registerGatewayCommands(program: Command, context: CliContext): void {
  const gateway = program.command('gateway').description('run and talk to the gateway');

  gateway
    .command('run')
    .description('run the headless gateway (serves the Control UI too)')
    .option('--port <port>', 'port to listen on (default 18790, or HEARTH_PORT)')
    .option('--bind <bind>', 'loopback (default), lan (needs TLS) or an address')
    .option('--token <token>', 'use this gateway token instead of the stored one')
    .option('--find-free-port', 'if the port is busy, use the next free one')
    .option('--print-url', 'print the Control UI sign-in link (it contains the gateway token)')
    .option('--open', "open the Control UI in this computer's browser, signed in")
    .action(
      async (options: {
        port?: string;
        bind?: string;
        token?: string;
        findFreePort?: boolean;
        printUrl?: boolean;
        open?: boolean;
      }) => {
        const host = await runGateway(context, options);
        announce(context, host, { printUrl: options.printUrl });
        if (options.open) await openControlUi(context, host);
        host.ready.then(
          () => context.stdout('Ready: agent, exec, memory and sessions are up.\n'),
          (error: unknown) =>
            context.stderr(
              `Some capabilities failed to start: ${(error as Error).message}. See ${host.paths.logsDir}/gateway.log\n`,
            ),
        );
        await waitForStopSignal(context);
        context.stdout('Stopping…\n');
        await host.dispose();
      },
    );

  gateway
    .command('call <method>')
    .description('call a gateway method and print the result')
    .option('--params <json>', 'method params as JSON', '{}')
    .option('--url <url>', 'gateway URL (default: the local gateway)')
    .option('--token <token>', 'gateway token (default: the stored one)')
    .option('--json', 'print compact JSON')
    .option('--timeout <ms>', 'request timeout in milliseconds', '30000')
    .option(
      '--pair <setupCode>',
      'first pair this machine with a remote gateway using a setup code (or hearth://pair link)',
    )
    .action(
      async (
        method: string,
        options: { params: string; url?: string; token?: string; json?: boolean; timeout: string; pair?: string },
      ) => {
        let params: unknown;
        try {
          params = JSON.parse(options.params);
        } catch (error) {
          throw new CliError(`--params is not valid JSON: ${(error as Error).message}`);
        }
        // The WebSocket client (ws, the protocol client, the device identity) loads here, not in
        // `gateway run`'s start before the port opens (#23).
        const [{ connectToGateway, localGatewayTarget }, { connectToPairedGateway, pairWithSetupCode }] =
          await Promise.all([import('../gateway-connection.js'), import('../pair-remote.js')]);
        let client: GatewayClient;
        if (options.pair) {
          client = (await pairWithSetupCode(context, options.pair, { url: options.url })).client;
        } else if (options.url?.startsWith('wss://') && !options.token) {
          const paired = await connectToPairedGateway(context, options.url);
          if (!paired) {
            throw new CliError(
              `this machine is not paired with ${options.url}: run again with --pair <setup code>, or pass --token`,
            );
          }
          client = paired;
        } else {
          const target = await localGatewayTarget(context.paths(), {
            url: options.url,
            token: options.token,
            env: context.env,
          });
          client = await connectToGateway(target, { timeoutMs: Number(options.timeout) });
        }
        try {
          const result = await client.call(method, params);
          context.stdout(`${options.json ? JSON.stringify(result) : JSON.stringify(result, null, 2)}\n`);
        } catch (error) {
          if (error instanceof GatewayError) throw new CliError(`${method} failed: ${error.code}: ${error.message}`);
          throw error;
        } finally {
          client.dispose();
        }
      },
    );

  gateway
    .command('token')
    .description('print the gateway token (created on first run)')
    .action(async () => {
      const { token } = await loadOrCreateGatewayToken(context.paths().identityDir);
      context.stdout(`${token}\n`);
    });
}

/** Resolves on SIGINT/SIGTERM (graceful shutdown). */
export function waitForStopSignal(context: CliContext): Promise<void> {
  void context;
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
