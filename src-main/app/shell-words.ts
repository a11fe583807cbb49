import { type AlwaysScope, reasonSentences } from '../exec/index.js';
import type { ReceivedApprovalReason } from '../protocol/index.js';

/**
 * What the desktop shell itself says (the native approval box, its notifications, the tray) in
 * the language the person chose in Settings (the window tells main, `hearth:language`), else the
 * system's. The Control UI's own words live in src-renderer/i18n; main cannot import them.
 */
export type ShellLanguage = 'en' | 'zh';

/** zh-CN, zh-TW… → zh; everything else → en (as the renderer's pickLanguage). */
export function shellLanguageOf(tags: readonly string[]): ShellLanguage {
  for (const tag of tags) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (base === 'zh') return 'zh';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export interface ShellWords {
  approvalNotice(gateway: string | undefined): string;
  approveTitle: string;
  runThis: string;
  destructive: string;
  /** Which gateway asks (only said when the desktop uses another machine's). */
  fromGateway(gateway: string): string;
  allowOnce: string;
  allowSession: string;
  alwaysAllow: string;
  alwaysAllowScope(scope: AlwaysScope): string;
  scopeShort(scope: AlwaysScope): string;
  deny: string;
  folder(cwd: string): string;
  agent(agentId: string): string;
  whyTitle: string;
  /** Why a request asks, one line each: translated by code (English keeps the policy's detail). */
  reasons(reasons: readonly ReceivedApprovalReason[]): string[];
  notUnderstood: string;
  programs(names: string): string;
  alwaysAddsRuleList: string;
  alwaysAddsRule(sentence: string): string;
  alwaysAddsCommand: string;
  scopeSentence(scope: AlwaysScope, cwd: string): string;
  answered(gateway: string | undefined): string;
  couldNotAnswer(gateway: string | undefined): string;
  thisComputer: string;
}

const enScopeShort: Record<AlwaysScope, string> = {
  binary: 'any arguments',
  exact: 'exactly this',
  folder: 'in this folder',
  tool: 'this tool',
  server: 'this server',
};
const zhScopeShort: Record<AlwaysScope, string> = {
  binary: '任何参数',
  exact: '仅限这条',
  folder: '仅在此文件夹',
  tool: '此工具',
  server: '此服务器',
};

const en: ShellWords = {
  approvalNotice: (gateway) =>
    gateway ? `Hearth on ${gateway} wants to run a command` : 'Hearth wants to run a command',
  approveTitle: 'Approve command',
  runThis: 'Run this command?',
  destructive: '⚠ This command is destructive and cannot be undone.',
  fromGateway: (gateway) => `Asked by Hearth on ${gateway}.`,
  allowOnce: 'Allow once',
  allowSession: 'Allow for this chat',
  alwaysAllow: 'Always allow',
  alwaysAllowScope: (scope) => `Always allow: ${enScopeShort[scope]}`,
  scopeShort: (scope) => enScopeShort[scope],
  deny: 'Deny',
  folder: (cwd) => `Folder: ${cwd}`,
  agent: (agentId) => `Agent: ${agentId}`,
  whyTitle: 'Why it needs approval:',
  reasons: (reasons) => reasonSentences(reasons, 'en'),
  notUnderstood: 'the command could not be fully understood',
  programs: (names) => `Programs: ${names}`,
  alwaysAddsRuleList: '"Always allow" adds a rule to the agent\'s allowlist:',
  alwaysAddsRule: (sentence) => `"Always allow" adds a rule to the agent's allowlist: ${sentence}.`,
  alwaysAddsCommand: '"Always allow" adds this command to the agent\'s allowlist.',
  scopeSentence(scope, cwd) {
    switch (scope) {
      case 'binary':
        return 'any use of the program, with any arguments';
      case 'exact':
        return 'this exact command, anywhere';
      case 'folder':
        return `this exact command, only in ${cwd} and the folders under it`;
      case 'tool':
        return 'this tool, with any input';
      case 'server':
        return "every tool of this tool's server";
    }
  },
  answered: (gateway) => (gateway ? `Hearth on ${gateway} answered` : 'Hearth answered'),
  couldNotAnswer: (gateway) => (gateway ? `Hearth on ${gateway} could not answer` : 'Hearth could not answer'),
  thisComputer: 'this computer',
};

const zh: ShellWords = {
  approvalNotice: (gateway) => (gateway ? `${gateway} 上的 Hearth 想要运行一条命令` : 'Hearth 想要运行一条命令'),
  approveTitle: '批准命令',
  runThis: '运行这条命令？',
  destructive: '⚠ 这条命令具有破坏性，无法撤销。',
  fromGateway: (gateway) => `由 ${gateway} 上的 Hearth 请求。`,
  allowOnce: '仅允许一次',
  allowSession: '在此对话中允许',
  alwaysAllow: '始终允许',
  alwaysAllowScope: (scope) => `始终允许：${zhScopeShort[scope]}`,
  scopeShort: (scope) => zhScopeShort[scope],
  deny: '拒绝',
  folder: (cwd) => `文件夹：${cwd}`,
  agent: (agentId) => `智能体：${agentId}`,
  whyTitle: '需要批准的原因：',
  reasons: (reasons) => reasonSentences(reasons, 'zh'),
  notUnderstood: '无法完全理解这条命令',
  programs: (names) => `程序：${names}`,
  alwaysAddsRuleList: '“始终允许”会在智能体的允许列表中添加一条规则：',
  alwaysAddsRule: (sentence) => `“始终允许”会在智能体的允许列表中添加一条规则：${sentence}。`,
  alwaysAddsCommand: '“始终允许”会把这条命令加入智能体的允许列表。',
  scopeSentence(scope, cwd) {
    switch (scope) {
      case 'binary':
        return '此程序的任何用法，任何参数';
      case 'exact':
        return '这条完全相同的命令，在任何位置';
      case 'folder':
        return `这条完全相同的命令，仅在 ${cwd} 及其子文件夹中`;
      case 'tool':
        return '此工具，任何输入';
      case 'server':
        return '此工具所在服务器的所有工具';
    }
  },
  answered: (gateway) => (gateway ? `${gateway} 上的 Hearth 已回答` : 'Hearth 已回答'),
  couldNotAnswer: (gateway) => (gateway ? `${gateway} 上的 Hearth 无法回答` : 'Hearth 无法回答'),
  thisComputer: '这台电脑',
};

export function shellWords(language: ShellLanguage): ShellWords {
  return language === 'zh' ? zh : en;
}
