import { type ApprovalReasonCode, isApprovalReasonCode, type ReceivedApprovalReason } from '../protocol/index.js';

/**
 * The reasons of an approval in Chinese, by code, for the surfaces main draws itself (the desktop's
 * native box, channel prompts): the Control UI has its own (src-renderer/i18n), which main cannot
 * import, with the same sentences. English keeps the policy's own detail, which names the program.
 */
const zhReasons: Record<ApprovalReasonCode, string> = {
  'security-deny': '此代理已关闭命令执行',
  'security-full': '此代理可以运行任何命令',
  'ask-off': '需要由人来决定，但询问已关闭',
  'ask-always': '每条命令都需要确认',
  'no-command': '它不运行任何命令',
  'safe-builtin': '它是无害的 shell 内置命令',
  allowlisted: '该程序在允许列表中',
  'allowlist-miss': '该程序不在允许列表中',
  'arguments-miss': '这些参数不匹配任何允许列表条目',
  'path-spelled': '程序以路径形式写出；只有路径规则才能允许它',
  'dynamic-command': '要运行哪个程序只有在运行时才能确定',
  'env-prefix': '它设置了会改变程序运行方式的变量',
  'risky-arguments': '它带有允许列表规则必须明确写出才能允许的参数',
  obfuscation: '命令的一部分经过了伪装',
  'shell-payload': '它会运行内联给出的脚本',
  'shell-stdin': 'shell 会运行通过管道传给它的命令',
  'interpreter-stdin': '它会运行通过管道传给它的代码',
  'interpreter-payload': '它运行的脚本只有在运行时才能确定',
  'parse-error': '命令的一部分无法分析',
  'nesting-too-deep': '命令嵌套过深，无法分析',
  'function-definition': '它定义了 shell 函数，可以冒充任何命令',
  'sensitive-assignment': '它设置的变量会改变后续命令运行的内容',
  'cwd-changed': '相对路径的程序在 cd 之后运行，可能已离开原文件夹',
  'write-outside-workspace': '它在工作区之外写入或删除',
  'sensitive-read': '它会读取密钥或凭据',
  'floor-unknown': '无法判断这是否安全',
  'recursive-delete-root': '它会删除根目录、顶层文件夹或主文件夹',
  'recursive-chmod-root': '它会更改某个重要文件夹下所有文件的权限',
  'move-root': '它会把根目录、顶层文件夹或主文件夹移走',
  'format-disk': '它会格式化磁盘',
  'overwrite-disk': '它会直接写入磁盘，将其擦除',
  'fork-bomb': '这是 fork 炸弹：它会不断复制自身，直到机器卡死',
  privilege: '它以管理员权限运行',
  irreversible: '它的操作无法撤销（擦除、覆盖或关闭机器）',
  'runs-download': '它会直接运行下载的内容，未经查看',
  'writes-outside': '它在工作区之外写入或删除',
  'moves-files': '它会移动或重命名文件，并覆盖目标位置的同名文件',
  deletes: '它会删除内容，且不进回收站，无法恢复',
  'recursive-permissions': '它会一次性更改整个目录树的权限或所有者',
  'rewrites-remote': '它会替换远程仓库上所有人的历史',
  'discards-work': '它会丢弃未提交的更改',
  publishes: '它会发布无法撤回的内容',
  'runs-code': '它会运行代码',
  network: '它会访问网络',
  'writes-files': '它会写入文件',
  'wire-request': '另一个程序通过网关请求执行此操作',
  'sandbox-relaxed': '沙箱为这条命令放宽了策略',
  'approval-denied': '已被某人或某条规则拒绝',
  'mcp-write': '该工具可能会更改内容',
  'mcp-destructive': '该工具可能会更改或删除内容',
  'cli-permission': '编程代理请求使用它的某个工具',
  'outside-workspace': '它会读写工作区之外的文件',
  'browser-action': '它会在网页上操作，可能在那里提交、购买或发布',
};

export type ReasonLanguage = 'en' | 'zh';

/** One reason as a person reads it in `language`; a code this build does not know shows its detail. */
export function reasonSentence(reason: ReceivedApprovalReason, language: ReasonLanguage): string {
  return language === 'zh' && isApprovalReasonCode(reason.code) ? zhReasons[reason.code] : reason.detail;
}

/** The reasons as lines, each sentence once (two codes, or two programs' details, can say the same in Chinese). */
export function reasonSentences(reasons: readonly ReceivedApprovalReason[], language: ReasonLanguage): string[] {
  return [...new Set(reasons.map((reason) => reasonSentence(reason, language)))];
}
