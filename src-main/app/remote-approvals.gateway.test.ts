import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger, systemClock } from '../base/index.js';
import { createFakeDialog } from '../testing/app/fake-dialog.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { createNativeApprovalPrompter } from './approval-dialog.js';
import type { Notifier, NotifyOptions } from './notifications.js';
import { promptRemoteApprovals } from './remote-approvals.js';
import { createShellClient } from './shell-client.js';
import { shellWords } from './shell-words.js';

// A gateway the desktop uses raises an approval: the shell's own client hears it, the native box
// (Electron's dialog and Notification passed in as fakes) asks naming that gateway, in the chosen
// language, and the answer reaches the gateway as exec.approval.resolve. The gateway here is a real
// composed host; what makes it "remote" in the app is only the relay in front of it.

let host: TestHost;
let operator: RawGatewaySocket;
beforeAll(async () => {
  host = await startTestHost();
  ({ socket: operator } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] }));
}, 120_000);
afterAll(async () => {
  operator?.close();
  await host?.close();
});

function setup(language: 'en' | 'zh' = 'en') {
  const dialog = createFakeDialog();
  const shown: NotifyOptions[] = [];
  const notifier: Notifier = {
    notify(options) {
      shown.push(options);
      return { close() {} };
    },
  };
  const prompter = createNativeApprovalPrompter({
    showMessageBox: dialog.showMessageBox,
    visibleWindow: () => undefined,
    notifier,
    windowFocused: () => false,
    summon() {},
    words: () => shellWords(language),
    clock: systemClock,
    logger: createMemoryLogger(),
  });
  const client = createShellClient(host.gateway, { version: '0.0.0-test', clock: systemClock });
  const watching = promptRemoteApprovals({ client, prompter, gateway: 'Studio Mac', logger: createMemoryLogger() });
  return {
    dialog,
    shown,
    dispose() {
      watching.dispose();
      client.dispose();
    },
  };
}

/** Asks the gateway for approval as a run would (two-phase: accepted now, decided later). */
async function raise(command: string) {
  const id = `raise-${command.length}-${Math.random().toString(36).slice(2)}`;
  operator.send({ type: 'req', id, method: 'exec.approval.request', params: { command, cwd: '/tmp', twoPhase: true } });
  const accepted = await operator.response(id, 30_000);
  const approvalId = (accepted.payload as { id: string }).id;
  return { approvalId, decided: operator.next((f) => f.type === 'res' && f.id === id && f !== accepted, 30_000) };
}

async function boxOpened(dialog: ReturnType<typeof createFakeDialog>) {
  await expect.poll(() => dialog.open.length, { timeout: 30_000 }).toBe(1);
  return dialog.open[0]!;
}

describe('approvals from the gateway the desktop uses', () => {
  it('get the native box and a notification naming the gateway, and the answer reaches it', async () => {
    const shell = setup();
    try {
      const { approvalId, decided } = await raise('make deploy');
      const box = await boxOpened(shell.dialog);
      expect(box.options.title).toBe('Approve command · Studio Mac');
      expect(box.options.detail.split('\n')[0]).toBe('Asked by Hearth on Studio Mac.');
      expect(box.options.message).toContain('make deploy');
      expect(shell.shown[0]?.title).toBe('Hearth on Studio Mac wants to run a command');
      box.press('Allow once');
      expect((await decided).payload).toMatchObject({ id: approvalId, decision: 'allow-once' });
      const got = await operator.request('exec.approval.get', { id: approvalId });
      expect(got.payload).toMatchObject({ status: 'resolved', resolution: { decision: 'allow-once' } });
    } finally {
      shell.dispose();
    }
  });

  it('close unanswered when another surface answers first', async () => {
    const shell = setup();
    try {
      const { approvalId, decided } = await raise('make clean');
      const box = await boxOpened(shell.dialog);
      const answered = await operator.request('exec.approval.resolve', { id: approvalId, decision: 'deny' });
      expect(answered.ok).toBe(true);
      expect((await decided).payload).toMatchObject({ decision: 'deny' });
      await expect.poll(() => box.closed, { timeout: 30_000 }).toBe(true);
    } finally {
      shell.dispose();
    }
  });

  it('are worded in Chinese when that is the chosen language', async () => {
    const shell = setup('zh');
    try {
      const { decided } = await raise('make test');
      const box = await boxOpened(shell.dialog);
      expect(box.options.title).toBe('批准命令 · Studio Mac');
      expect(box.options.message).toContain('运行这条命令？');
      expect(box.options.buttons).toContain('拒绝');
      expect(shell.shown[0]?.title).toBe('Studio Mac 上的 Hearth 想要运行一条命令');
      box.press('拒绝');
      expect((await decided).payload).toMatchObject({ decision: 'deny' });
    } finally {
      shell.dispose();
    }
  });
});
