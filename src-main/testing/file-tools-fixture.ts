// A real approval service (its own screen, history file and events) behind the file tools, with
// a scripted person answering: the part faked is the person, not our code.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import {
  type ApprovalDecision,
  type ApprovalRequest,
  ApprovalService,
  approvalsHistoryPath,
  createApprovalHistory,
  createCommandScreen,
  loadBashParser,
} from '../exec/index.js';
import { askThroughApprovals, createFileTools, type ForbiddenPlace } from '../tools/files/index.js';
import type { ToolContext, ToolDefinition, ToolOutput } from '../tools/tool.js';

export interface FileToolsFixture {
  /** A temp folder holding `home/`, `home/workspace/`, `home/.ssh/`, `hearth/identity/`, `outside/`. */
  root: string;
  home: string;
  workspace: string;
  outside: string;
  identityDir: string;
  /** What the person was asked, in order. */
  asked: ApprovalRequest[];
  /** The person's next answers (default: deny). */
  answers: ApprovalDecision[];
  run(name: string, input: unknown): Promise<ToolOutput>;
  tools: ToolDefinition[];
  dispose(): Promise<void>;
}

export async function createFileToolsFixture(
  options: { grantedRoots?: string[]; modelTakesImages?: boolean } = {},
): Promise<FileToolsFixture> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'hearth-files-')));
  const home = join(root, 'home');
  const workspace = join(home, 'workspace');
  const outside = join(root, 'outside');
  const identityDir = join(root, 'hearth', 'identity');
  for (const dir of [workspace, outside, identityDir, join(home, '.ssh'), join(home, '.aws')])
    await mkdir(dir, { recursive: true });
  const asked: ApprovalRequest[] = [];
  const answers: ApprovalDecision[] = [];
  const parser = await loadBashParser();
  const approvals = new ApprovalService({
    clock: systemClock,
    events: { publish: () => {} },
    history: createApprovalHistory(approvalsHistoryPath(join(root, 'state'))),
    logger: silentLogger,
    screen: createCommandScreen(parser, { home, sensitivePaths: [identityDir] }),
  });
  const prompter = approvals.registerPrompter({
    name: 'scripted-person',
    prompt: async (request) => {
      asked.push(request);
      return answers.shift() ?? 'deny';
    },
  });
  const forbidden: ForbiddenPlace[] = [
    { path: identityDir, label: "the gateway's identity folder" },
    { path: join(root, 'hearth', 'state', 'secrets.enc.json'), label: 'the secret store' },
    { path: join(home, '.ssh'), label: '~/.ssh' },
  ];
  const tools = createFileTools({
    forbidden,
    askAlways: [join(home, '.aws')],
    grantedRoots: () => options.grantedRoots ?? [],
    imagesNotShown: () => (options.modelTakesImages === false ? "this agent's model takes text only" : undefined),
    ask: askThroughApprovals(approvals),
    home,
  });
  const controller = new AbortController();
  const context: ToolContext = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    workspaceDir: workspace,
    signal: controller.signal,
    log: silentLogger,
  };
  return {
    root,
    home,
    workspace,
    outside,
    identityDir,
    asked,
    answers,
    tools,
    async run(name, input) {
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`no file tool ${name}`);
      const parsed = tool.inputSchema.safeParse(input);
      if (!parsed.success) return { output: `invalid input: ${parsed.error.message}`, isError: true };
      return tool.execute(parsed.data, context);
    },
    async dispose() {
      controller.abort();
      prompter.dispose();
      approvals.dispose();
      await approvals.flushHistory();
      await rm(root, { recursive: true, force: true });
    },
  };
}
