import { type Grammar, goFlags, optionRisks, parseArguments, positionalsOf } from './option-grammar.js';
import { network, runsCode } from './option-risks.js';
import { type ProgramKnowledge, type Risk, risk } from './program-knowledge.js';

/** Global options (pflag) that point docker at another daemon or another configuration. */
const globalGrammar: Grammar = {
  convention: { ...goFlags, stopAtFirstPositional: true },
  options: [
    { names: ['-H', '--host'], value: 'required', risk: network('talks to another Docker daemon') },
    { names: ['-c', '--context'], value: 'required', risk: network('talks to the Docker daemon of another context') },
    {
      names: ['--config'],
      value: 'required',
      risk: runsCode('reads another client configuration (credential helpers are programs)'),
    },
    { names: ['-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'], value: 'required' },
  ],
};

/** Reading the daemon's state; everything else starts containers, builds, pulls or pushes. */
const readOnly = new Set([
  'ps',
  'images',
  'version',
  'info',
  'logs',
  'inspect',
  'port',
  'top',
  'history',
  'stats',
  'diff',
  'events',
  'help',
]);
const readOnlyGroups: Record<string, Set<string>> = {
  container: new Set(['ls', 'list', 'ps', 'inspect', 'logs', 'port', 'top', 'stats', 'diff']),
  image: new Set(['ls', 'list', 'inspect', 'history']),
  volume: new Set(['ls', 'list', 'inspect']),
  network: new Set(['ls', 'list', 'inspect']),
  context: new Set(['ls', 'list', 'inspect', 'show']),
  system: new Set(['df', 'info', 'events']),
  compose: new Set(['ps', 'ls', 'logs', 'config', 'images', 'top', 'version', 'port']),
  buildx: new Set(['ls', 'version', 'inspect', 'du']),
};

const kinds: Record<string, { kind: Risk['kind']; detail: string }> = {
  push: { kind: 'publishes', detail: 'uploads an image to a registry' },
  login: { kind: 'publishes', detail: 'stores registry credentials' },
  pull: { kind: 'network', detail: 'downloads an image' },
  search: { kind: 'network', detail: 'queries Docker Hub' },
};

/**
 * docker and podman: the daemon runs as root, so starting, building, copying and
 * execing are code execution with the machine's full rights. Only reading is
 * allowed on a bare entry.
 */
export const docker: ProgramKnowledge = {
  names: ['docker', 'podman', 'nerdctl'],
  assess(args, context) {
    return parseArguments(args, globalGrammar).readings.flatMap((tokens) => {
      const risks: Risk[] = optionRisks(tokens, context);
      const [command, ...rest] = positionalsOf(tokens).map((token) => token.word.text);
      // The first word after the command that is not an option (`docker compose -f x.yml up`: x.yml, asked, safe side).
      const action = rest.find((word) => !word.startsWith('-'));
      if (command === undefined) return risks;
      if (readOnly.has(command)) return risks;
      const group = readOnlyGroups[command];
      if (group && ((action === undefined && rest.length === 0) || (action !== undefined && group.has(action))))
        return risks;
      const known = kinds[command];
      risks.push(
        known
          ? risk(known.kind, command, `docker ${command} ${known.detail}`)
          : risk(
              'runs-code',
              [command, ...(action ? [action] : [])],
              `docker ${command}${action ? ` ${action}` : ''} runs, builds or changes containers (the daemon has root rights)`,
            ),
      );
      return risks;
    });
  },
};
