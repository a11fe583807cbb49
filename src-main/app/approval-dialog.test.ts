import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import type { ApprovalRequest } from '../exec/approval-types.js';
import { createFakeDialog } from '../testing/app/fake-dialog.js';
import { flush } from '../testing/app/fake-electron.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { approvalDetail, createNativeApprovalPrompter } from './approval-dialog.js';
import type { Notifier } from './notifications.js';
import { shellWords } from './shell-words.js';

function setup(options: { windowVisible?: boolean; mac?: boolean; macWindow?: boolean; focused?: boolean } = {}) {
  const clock = createFakeClock();
  const dialog = createFakeDialog();
  const notifications: { title: string; body: string; closed: boolean; click?: () => void }[] = [];
  const notifier: Notifier = {
    notify({ title, body, onClick }) {
      const entry = { title, body, closed: false, click: onClick };
      notifications.push(entry);
      return {
        close: () => {
          entry.closed = true;
        },
      };
    },
  };
  let summoned = 0;
  const window = { name: 'main-window' };
  const prompter = createNativeApprovalPrompter({
    showMessageBox: dialog.showMessageBox,
    visibleWindow: () => (options.windowVisible ? window : undefined),
    revealWindow: options.mac
      ? () => {
          summoned += 1;
          return options.macWindow === false ? undefined : window;
        }
      : undefined,
    notifier,
    windowFocused: () => options.focused === true,
    summon: () => {
      summoned += 1;
    },
    clock,
    logger: createMemoryLogger(),
  });
  const request: ApprovalRequest = {
    id: 'ap-1',
    agentId: 'main',
    sessionKey: 'agent:main:main',
    command: 'rm -rf build',
    analysis: {
      commands: [{ name: 'rm', args: ['-rf', 'build'], via: [], source: 'rm -rf build' }],
      findings: [],
      parseError: false,
    },
    reasons: [{ code: 'writes-outside', detail: 'deletes files recursively' }],
    cwd: '/home/me/project',
    createdAtMs: clock.now(),
    expiresAtMs: clock.now() + 120_000,
    allowedDecisions: ['allow-once', 'allow-always', 'deny'],
  };
  return { clock, dialog, notifications, prompter, request, window, summoned: () => summoned };
}

describe('native approval dialog', () => {
  it('notifies only while no Hearth window has focus (the box and the inline approval are in view otherwise)', async () => {
    // Answered elsewhere at the end, so neither prompt's expiry timer outlives the test.
    const elsewhere = new AbortController();
    const away = setup();
    const awayAnswer = away.prompter.prompt(away.request, elsewhere.signal);
    await flush();
    expect(away.notifications.map((n) => n.title)).toEqual(['Hearth wants to run a command']);
    const looking = setup({ windowVisible: true, focused: true });
    const lookingAnswer = looking.prompter.prompt(looking.request, elsewhere.signal);
    await flush();
    expect(looking.dialog.open).toHaveLength(1);
    expect(looking.notifications).toEqual([]);
    elsewhere.abort();
    expect([await awayAnswer, await lookingAnswer]).toEqual([undefined, undefined]);
  });

  it('shows the command with Allow once / Always allow / Deny, Deny as default and cancel', async () => {
    const { dialog, prompter, request } = setup();
    const answer = prompter.prompt(request, new AbortController().signal);
    await flush();
    const box = dialog.open[0]!;
    expect(box.options.buttons).toEqual(['Allow once', 'Always allow', 'Deny']);
    expect(box.options.buttons[box.options.defaultId]).toBe('Deny');
    expect(box.options.buttons[box.options.cancelId]).toBe('Deny');
    expect(box.options.message).toContain('rm -rf build');
    expect(box.options.detail).toContain('Folder: /home/me/project');
    expect(box.options.detail).toContain('Agent: main');
    expect(box.options.detail).toContain('deletes files recursively');
    expect(box.options.detail).toContain('Programs: rm');
    expect(prompter.name).toBe('desktop-dialog');
    box.press('Allow once');
    expect(await answer).toBe('allow-once');
  });

  it('maps each button to its decision', async () => {
    const { dialog, prompter, request } = setup();
    const always = prompter.prompt(request, new AbortController().signal);
    await flush();
    dialog.open[0]!.press('Always allow');
    expect(await always).toBe('allow-always');
    const deny = prompter.prompt({ ...request, id: 'ap-2' }, new AbortController().signal);
    await flush();
    dialog.open[0]!.press('Deny');
    expect(await deny).toBe('deny');
  });

  it('offers "Allow for this chat" where the request allows a session answer, and answers it as such', async () => {
    const { dialog, prompter, request } = setup();
    const answer = prompter.prompt({ ...request, allowSession: true }, new AbortController().signal);
    await flush();
    const box = dialog.open[0]!;
    expect(box.options.buttons).toEqual(['Allow once', 'Allow for this chat', 'Always allow', 'Deny']);
    expect(box.options.buttons[box.options.defaultId]).toBe('Deny');
    box.press('Allow for this chat');
    expect(await answer).toEqual({ decision: 'allow-once', remember: 'session' });
  });

  it('offers each "Always" scope the card offers, "in this folder" too, and answers with the scope pressed', async () => {
    const { dialog, prompter, request } = setup();
    const answer = prompter.prompt(
      { ...request, command: 'ls -la', alwaysScopes: ['binary', 'exact', 'folder'] },
      new AbortController().signal,
    );
    await flush();
    const box = dialog.open[0]!;
    expect(box.options.buttons).toEqual([
      'Allow once',
      'Always allow: any arguments',
      'Always allow: exactly this',
      'Always allow: in this folder',
      'Deny',
    ]);
    expect(box.options.buttons[box.options.defaultId]).toBe('Deny');
    expect(box.options.detail).toContain(
      '• in this folder: this exact command, only in /home/me/project and the folders under it',
    );
    box.press('Always allow: in this folder');
    expect(await answer).toEqual({ decision: 'allow-always', allowAlwaysScope: 'folder' });
  });

  it('a destructive request warns, puts Deny first as default and cancel, and offers only exact / folder', async () => {
    const { dialog, prompter, request } = setup();
    const answer = prompter.prompt(
      {
        ...request,
        alwaysScopes: ['exact', 'folder'],
        risk: {
          level: 'destructive',
          because: [{ code: 'deletes', detail: 'it deletes recursively' }],
          writes: ['build'],
          network: false,
        },
      },
      new AbortController().signal,
    );
    await flush();
    const box = dialog.open[0]!;
    expect(box.options.buttons).toEqual([
      'Deny',
      'Allow once',
      'Always allow: exactly this',
      'Always allow: in this folder',
    ]);
    expect(box.options.defaultId).toBe(0);
    expect(box.options.cancelId).toBe(0);
    expect(box.options.message).toMatch(/^⚠ This command is destructive and cannot be undone\./);
    expect(box.options.detail).toContain('• it deletes recursively');
    expect(box.options.buttons.some((label) => label.includes('any arguments'))).toBe(false);
    box.press('Always allow: exactly this');
    expect(await answer).toEqual({ decision: 'allow-always', allowAlwaysScope: 'exact' });
  });

  it('offers only the decisions the request allows, Deny always among them', async () => {
    const { dialog, prompter, request } = setup();
    const answer = prompter.prompt(
      { ...request, allowedDecisions: ['allow-once', 'deny'] },
      new AbortController().signal,
    );
    await flush();
    const box = dialog.open[0]!;
    expect(box.options.buttons).toEqual(['Allow once', 'Deny']);
    expect(box.options.buttons[box.options.cancelId]).toBe('Deny');
    expect(box.options.detail).not.toContain('Always allow');
    box.press('Allow once');
    expect(await answer).toBe('allow-once');
    const denyOnly = prompter.prompt({ ...request, id: 'ap-2', allowedDecisions: [] }, new AbortController().signal);
    await flush();
    expect(dialog.open[0]!.options.buttons).toEqual(['Deny']);
    dialog.open[0]!.escape();
    expect(await denyOnly).toBe('deny');
  });

  it('treats Escape as Deny', async () => {
    const { dialog, prompter, request } = setup();
    const answer = prompter.prompt(request, new AbortController().signal);
    await flush();
    dialog.open[0]!.escape();
    expect(await answer).toBe('deny');
  });

  it('closes the box and reports nothing when another surface answered first', async () => {
    const { dialog, notifications, prompter, request } = setup();
    const elsewhere = new AbortController();
    const answer = prompter.prompt(request, elsewhere.signal);
    await flush();
    expect(dialog.open).toHaveLength(1);
    elsewhere.abort();
    expect(await answer).toBeUndefined();
    expect(dialog.open).toHaveLength(0);
    expect(notifications[0]!.closed).toBe(true);
    expect(prompter.pendingCount).toBe(0);
  });

  it('wins when the user answers first: a later abort changes nothing', async () => {
    const { dialog, prompter, request } = setup();
    const elsewhere = new AbortController();
    const answer = prompter.prompt(request, elsewhere.signal);
    await flush();
    dialog.open[0]!.press('Deny');
    await flush();
    elsewhere.abort();
    expect(await answer).toBe('deny');
  });

  it('does not open a box for a request already answered or already expired', async () => {
    const { dialog, prompter, request, clock } = setup();
    const done = new AbortController();
    done.abort();
    expect(await prompter.prompt(request, done.signal)).toBeUndefined();
    expect(await prompter.prompt({ ...request, expiresAtMs: clock.now() }, new AbortController().signal)).toBe(
      undefined,
    );
    expect(dialog.boxes).toHaveLength(0);
  });

  it('closes the box when the request expires', async () => {
    const { dialog, prompter, request, clock } = setup();
    const answer = prompter.prompt(request, new AbortController().signal);
    await flush();
    clock.advance(120_000);
    expect(await answer).toBeUndefined();
    expect(dialog.open).toHaveLength(0);
  });

  it('stands alone when the window is hidden and is modal to the window when it is visible', async () => {
    const elsewhere = new AbortController();
    const hidden = setup({ windowVisible: false });
    const hiddenAnswer = hidden.prompter.prompt(hidden.request, elsewhere.signal);
    await flush();
    expect(hidden.dialog.open[0]!.window).toBeUndefined();
    const visible = setup({ windowVisible: true });
    const visibleAnswer = visible.prompter.prompt(visible.request, elsewhere.signal);
    await flush();
    expect(visible.dialog.open[0]!.window).toBe(visible.window);
    elsewhere.abort();
    expect([await hiddenAnswer, await visibleAnswer]).toEqual([undefined, undefined]);
  });

  it('on macOS brings the hidden window up and attaches the box to it (a parentless box would block)', async () => {
    const { dialog, prompter, request, window, summoned } = setup({ mac: true, windowVisible: false });
    const answer = prompter.prompt(request, new AbortController().signal);
    await flush();
    expect(summoned()).toBe(1);
    expect(dialog.open[0]!.window).toBe(window);
    dialog.open[0]!.press('Allow once');
    expect(await answer).toBe('allow-once');
  });

  it('on macOS without any window it leaves the question to other surfaces until one answers', async () => {
    const { dialog, prompter, request, notifications } = setup({ mac: true, macWindow: false });
    const elsewhere = new AbortController();
    const answer = prompter.prompt(request, elsewhere.signal);
    await flush();
    expect(dialog.boxes).toHaveLength(0);
    expect(prompter.pendingCount).toBe(1);
    elsewhere.abort();
    expect(await answer).toBeUndefined();
    expect(notifications[0]!.closed).toBe(true);
    expect(prompter.pendingCount).toBe(0);
  });

  it('posts a notification that summons the window, and counts pending approvals', async () => {
    const { dialog, notifications, prompter, request, summoned } = setup();
    const counts: number[] = [];
    const counting = prompter.onDidChangePending((n) => counts.push(n));
    const first = prompter.prompt(request, new AbortController().signal);
    const second = prompter.prompt({ ...request, id: 'ap-2' }, new AbortController().signal);
    await flush();
    expect(prompter.pendingCount).toBe(2);
    expect(notifications.map((n) => n.body)).toEqual(['rm -rf build', 'rm -rf build']);
    notifications[0]!.click!();
    expect(summoned()).toBe(1);
    dialog.open[0]!.press('Deny');
    dialog.open[0]!.press('Allow once');
    expect([await first, await second]).toEqual(['deny', 'allow-once']);
    expect(counts).toEqual([1, 2, 1, 0]);
    counting.dispose();
  });

  it('words the reasons from their codes in the chosen language, each once; an unknown code keeps its detail', () => {
    const { request } = setup();
    const asked: ApprovalRequest = {
      ...request,
      reasons: [
        { code: 'allowlist-miss', detail: 'rm (/usr/bin/rm) is not on the allowlist' },
        { code: 'writes-outside', detail: 'rm deletes outside the workspace' },
        { code: 'write-outside-workspace', detail: 'writes to /etc/hosts, outside the working folder' },
        // A newer gateway's code (remote approvals read it as it comes).
        { code: 'from-a-newer-gateway' as ApprovalRequest['reasons'][number]['code'], detail: 'something new' },
      ],
    };
    const zh = approvalDetail(asked, shellWords('zh'));
    expect(zh).toContain('需要批准的原因：\n• 该程序不在允许列表中\n• 它在工作区之外写入或删除\n• something new\n');
    expect(zh).not.toContain('allowlist');
    // English keeps the policy's own sentences: they name the program and the path.
    const en = approvalDetail(asked, shellWords('en'));
    expect(en).toContain('• rm (/usr/bin/rm) is not on the allowlist\n• rm deletes outside the workspace\n');
  });
});
