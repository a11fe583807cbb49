import type { AlwaysScope, ApprovalRequest, Reason } from '../exec/index.js';
import { reasonSentences, SCOPE_SHORT, scopeSentence } from '../exec/index.js';

/** The language Hearth writes its own channel messages in: `ui.language` in hearth.json (Settings → Language). */
export type ChannelLanguage = 'en' | 'zh';

/** hearth.json's `ui.language`, as the channels read it: anything but `zh` is English. */
export function channelLanguage(ui: unknown): ChannelLanguage {
  return (ui as { language?: unknown } | undefined)?.language === 'zh' ? 'zh' : 'en';
}

/** Every text an approval shows in a channel, per language. The `/approve` words stay as typed (allow, deny…). */
export interface ApprovalWords {
  /** Between a label and what it says ("Always: exactly this"). */
  colon: string;
  once: string;
  session: string;
  always: string;
  deny: string;
  alwaysScoped(scope: AlwaysScope): string;
  scopeShort(scope: AlwaysScope): string;
  scopeSentence(scope: AlwaysScope, request: Pick<ApprovalRequest, 'cwd'>): string;
  done: { once: string; session: string; always: string; deny: string };
  destructive(because: string): string;
  /** The reasons joined into one line: translated by code (English keeps the policy's detail). */
  reasons(reasons: readonly Reason[]): string;
  needed(code: string, onBehalfOf?: string): string;
  why(text: string): string;
  cwd(path: string): string;
  answerWith(code: string, words: string): string;
  byWhom(who: string): string;
  expired: string;
  cancelled: string;
  noLongerWaiting: string;
  pressNoLongerWaiting: string;
  ownerOnly: string;
  unknownAnswer(said: string, code: string, words: string): string;
  notAllowed(words: string): string;
  unavailable: string;
  settled(code: string, outcome: string): string;
}

const en: ApprovalWords = {
  colon: ': ',
  once: 'Allow once',
  session: 'Allow for this chat',
  always: 'Always',
  deny: 'Deny',
  alwaysScoped: (scope) => `Always: ${SCOPE_SHORT[scope]}`,
  scopeShort: (scope) => SCOPE_SHORT[scope],
  scopeSentence,
  done: {
    once: '✅ Allowed once',
    session: '✅ Allowed for this chat',
    always: '✅ Always allowed',
    deny: '❌ Denied',
  },
  destructive: (because) => `⚠️ Destructive, cannot be undone: ${because}`,
  reasons: (reasons) => reasonSentences(reasons, 'en').join('; '),
  needed: (code, onBehalfOf) =>
    `Approval needed (${code})${onBehalfOf ? ` for ${onBehalfOf}` : ''}: the assistant wants to run`,
  why: (text) => `Why: ${text}`,
  cwd: (path) => `In: ${path}`,
  answerWith: (code, words) => `Answer with: /approve ${code} ${words}`,
  byWhom: (who) => `by ${who}`,
  expired: 'nobody answered in time',
  cancelled: 'the run was cancelled',
  noLongerWaiting: 'No longer waiting.',
  pressNoLongerWaiting: 'This approval is no longer waiting.',
  ownerOnly: 'Only the owner can answer this approval.',
  unknownAnswer: (said, code, words) => `unknown answer "${said}": use /approve ${code} ${words}`,
  notAllowed: (words) => `That answer is not allowed for this approval (${words}).`,
  unavailable: 'Approvals are not available right now.',
  settled: (code, outcome) => `Approval ${code}: ${outcome}`,
};

const ZH_SCOPE_SHORT: Record<AlwaysScope, string> = {
  binary: '任意参数',
  exact: '仅此命令',
  folder: '仅在此文件夹',
  tool: '此工具',
  server: '此服务器',
};

const zh: ApprovalWords = {
  colon: '：',
  once: '允许一次',
  session: '在此对话中允许',
  always: '始终允许',
  deny: '拒绝',
  alwaysScoped: (scope) => `始终允许：${ZH_SCOPE_SHORT[scope]}`,
  scopeShort: (scope) => ZH_SCOPE_SHORT[scope],
  scopeSentence: (scope, request) => {
    switch (scope) {
      case 'binary':
        return '该程序的任何用法，任意参数';
      case 'exact':
        return '这条完全相同的命令，在任何位置';
      case 'folder':
        return `这条完全相同的命令，仅在 ${request.cwd} 及其子文件夹中`;
      case 'tool':
        return '此工具，任意输入';
      case 'server':
        return '此工具所属服务器的所有工具';
    }
  },
  done: {
    once: '✅ 已允许一次',
    session: '✅ 已在此对话中允许',
    always: '✅ 已始终允许',
    deny: '❌ 已拒绝',
  },
  destructive: (because) => `⚠️ 破坏性操作，无法撤销：${because}`,
  reasons: (reasons) => reasonSentences(reasons, 'zh').join('；'),
  needed: (code, onBehalfOf) => `需要批准（${code}）${onBehalfOf ? `，来自 ${onBehalfOf}` : ''}：助手想要运行`,
  why: (text) => `原因：${text}`,
  cwd: (path) => `位置：${path}`,
  answerWith: (code, words) => `回复：/approve ${code} ${words}`,
  byWhom: (who) => `由 ${who}`,
  expired: '无人及时回复',
  cancelled: '运行已取消',
  noLongerWaiting: '不再等待。',
  pressNoLongerWaiting: '此批准已不再等待。',
  ownerOnly: '只有所有者可以回复此批准。',
  unknownAnswer: (said, code, words) => `未知的回复“${said}”：请使用 /approve ${code} ${words}`,
  notAllowed: (words) => `此批准不接受这个回复（${words}）。`,
  unavailable: '批准功能暂时不可用。',
  settled: (code, outcome) => `批准 ${code}：${outcome}`,
};

export const APPROVAL_WORDS: Record<ChannelLanguage, ApprovalWords> = { en, zh };
