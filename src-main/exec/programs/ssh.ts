import {
  type Grammar,
  interpreterGetopt,
  type OptionRisk,
  optionRisks,
  parseArguments,
  positionalsOf,
} from './option-grammar.js';
import { network, runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, type Risk, risk, writeRisk } from './program-knowledge.js';

const remotePath = /^([^/:]+@)?[^/:]+:|^(scp|sftp):\/\//;

/** `-o Key=value` settings that run a local program. */
const localProgram =
  /^\s*(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|ProxyUseFdpass|Match|Include|SecurityKeyProvider|PKCS11Provider)\b/i;

const settingRisk: OptionRisk = (use) =>
  use.value && (use.value.dynamic || localProgram.test(use.value.text))
    ? risk('runs-code', use.spelled, `${use.name} ${use.value.text} runs a local program`)
    : undefined;

const forward = network('opens a network port and forwards it');
const configFile = runsCode('reads a config file, which can name programs to run (ProxyCommand…)');

/** OpenSSH option letters that take a value (getopt; options end at the host). */
const sshGrammar: Grammar = {
  convention: interpreterGetopt,
  options: [
    { names: ['-o'], value: 'required', risk: settingRisk },
    { names: ['-F'], value: 'required', risk: configFile },
    { names: ['-L', '-R', '-D', '-w'], value: 'required', risk: forward },
    { names: ['-E'], value: 'required', risk: writesValue('writes its log') },
    { names: ['-S'], value: 'required' },
    { names: ['-b', '-B', '-c', '-e', '-I', '-i', '-J', '-l', '-m', '-O', '-P', '-p', '-Q', '-W'], value: 'required' },
  ],
};

const copyGrammar: Grammar = {
  convention: { ...interpreterGetopt, stopAtFirstPositional: false },
  options: [
    { names: ['-o'], value: 'required', risk: settingRisk },
    { names: ['-F'], value: 'required', risk: configFile },
    { names: ['-S'], value: 'required', risk: runsCode('runs this program instead of ssh') },
    { names: ['-D'], value: 'required', risk: runsCode('runs this program as the sftp server') },
    { names: ['-c', '-i', '-J', '-l', '-P', '-X', '-b', '-B', '-R', '-s'], value: 'required' },
  ],
};

/** ssh, scp, sftp: network by nature (a bare entry allows connecting); local programs they run and ports they open are asked. */
export const ssh: ProgramKnowledge = {
  names: ['ssh'],
  assess(args, context) {
    return parseArguments(args, sshGrammar).readings.flatMap((tokens): Risk[] => optionRisks(tokens, context));
  },
};

export const scp: ProgramKnowledge = {
  names: ['scp', 'sftp'],
  assess(args, context) {
    return parseArguments(args, copyGrammar).readings.flatMap((tokens): Risk[] => {
      const risks = optionRisks(tokens, context);
      const paths = positionalsOf(tokens);
      const destination = paths.length >= 2 ? paths.at(-1) : undefined;
      if (destination && !remotePath.test(destination.word.text)) {
        const written = writeRisk(destination.word, context, destination.word.text, 'scp copies');
        if (written) risks.push(written);
      }
      return risks;
    });
  },
};
