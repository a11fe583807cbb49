import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalReasonCodes } from '../../../src-main/protocol/methods/exec.js';
import { createTranslate } from '../../i18n/translate.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ToolCallView } from '../chat/tool-call-view.js';
import { reasonKey, reasonLines, reasonText } from './approval-words.js';
import { ApprovalsView } from './approvals-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const NOW = Date.now();

/** An exec request as `exec.approval.list` returns it: graded, its reasons as codes plus English details. */
const execRequest = (destructive: boolean) => ({
  id: 'ap1',
  agentId: 'main',
  sessionKey: 'agent:main:main',
  command: destructive ? 'rm -r build' : 'curl -o out.json https://example.com',
  cwd: '/home/me/project',
  reasons: [{ code: 'allowlist-miss', detail: 'curl (/usr/bin/curl) is not on the allowlist' }],
  allowedDecisions: ['allow-once', 'allow-always', 'deny'],
  allowSession: true,
  suggested: 'once',
  alwaysScopes: destructive ? ['exact', 'folder'] : ['binary', 'exact', 'folder'],
  allowAlways: [{ pattern: '/usr/bin/curl' }],
  allowAlwaysExact: [{ pattern: '/usr/bin/curl', argPattern: '^-o out\\.json https://example\\.com$' }],
  allowAlwaysFolder: [
    { pattern: '/usr/bin/curl', argPattern: '^-o out\\.json https://example\\.com$', cwdWithin: '/home/me/project' },
  ],
  risk: destructive
    ? {
        level: 'destructive',
        because: [
          { code: 'deletes', detail: 'rm -r deletes folders and everything in them, with no trash' },
          { code: 'gone-wrong-later', detail: 'a reason this renderer has no words for' },
        ],
        writes: ['build'],
        network: false,
      }
    : {
        level: 'caution',
        because: [{ code: 'network', detail: 'curl talks to the network' }],
        writes: [],
        network: true,
      },
  createdAtMs: NOW,
  expiresAtMs: NOW + 30 * 60_000,
});

describe('reason words', () => {
  const en = createTranslate('en');
  const zh = createTranslate('zh');

  it('translates a known code and keeps the gateway text for an unknown one', () => {
    expect(reasonText(en, { code: 'deletes', detail: 'rm deletes, with no trash' })).toBe(
      'It deletes, with no trash to restore from',
    );
    expect(reasonText(zh, { code: 'deletes', detail: 'rm deletes, with no trash' })).toBe(
      '它会删除内容，且不进回收站，无法恢复',
    );
    expect(reasonText(zh, { code: 'new-in-a-later-gateway', detail: 'something new' })).toBe('something new');
    // A code that happens to be an Object.prototype name is still unknown, not a crash.
    expect(reasonText(zh, { code: 'toString', detail: 'odd code' })).toBe('odd code');
  });

  // The table is Record<ApprovalReasonCode, MessageKey>, so a code without a key does not build;
  // this checks what the type cannot: that each key has real words in both languages.
  it('has English and Chinese words for every code main emits', () => {
    const missing: string[] = [];
    for (const code of approvalReasonCodes) {
      const english = reasonText(en, { code, detail: '' });
      const chinese = reasonText(zh, { code, detail: '' });
      if (!english.trim() || !chinese.trim() || chinese === english || chinese === reasonKey[code]) missing.push(code);
    }
    expect(missing).toEqual([]);
    expect(Object.keys(reasonKey).sort()).toEqual([...approvalReasonCodes].sort());
  });

  it('says each sentence once and keeps every detail for the tooltip', () => {
    const lines = reasonLines(en, [
      { code: 'deletes', detail: 'rm deletes, with no trash' },
      { code: 'deletes', detail: 'find -delete deletes every file it matches' },
      { code: 'deletes', detail: 'rm deletes, with no trash' },
      { code: 'write-outside-workspace', detail: 'writes /etc/hosts' },
      { code: 'writes-outside', detail: 'rm deletes outside the workspace' },
    ]);
    expect(lines).toEqual([
      {
        text: 'It deletes, with no trash to restore from',
        details: 'rm deletes, with no trash; find -delete deletes every file it matches',
      },
      {
        text: 'It writes or deletes outside the workspace',
        details: 'writes /etc/hosts; rm deletes outside the workspace',
      },
    ]);
  });
});

describe('approval reasons in Chinese', () => {
  it('the inline card and the Approvals view show translated reasons, the server text for an unknown code', async () => {
    app = startTestApp({
      'exec.approval.list': () => [execRequest(true)],
      'exec.approval.resolve': () => ({ ok: true }),
    });
    act(() => app.stores.ui.getState().setLanguage('zh'));
    renderWithStores(
      app,
      <>
        <ToolCallView
          message={{
            id: 'tool-1',
            role: 'tool',
            text: '',
            toolCallId: 'call-1',
            toolName: 'exec',
            toolInput: { command: 'rm -r build' },
            status: 'streaming',
            approval: 'pending',
            approvalId: 'ap1',
          }}
        />
        <ApprovalsView />
      </>,
    );
    for (const surface of [await screen.findByTestId('inline-approval'), await screen.findByTestId('approval-card')]) {
      const reasons = within(surface).getAllByRole('listitem');
      expect(reasons.map((item) => item.textContent)).toEqual([
        '它会删除内容，且不进回收站，无法恢复',
        'a reason this renderer has no words for',
      ]);
      // The gateway's own words, which name the program, stay a hover away.
      expect(reasons[0]!.getAttribute('title')).toBe('rm -r deletes folders and everything in them, with no trash');
      expect(within(surface).queryByText(/rm -r deletes folders/)).toBeNull();
    }
  });
});

describe('approvals view: the "always" rules the inline card offers', () => {
  it('a command: any use, these exact arguments, or these exact arguments in this folder; folder is sent', async () => {
    app = startTestApp({
      'exec.approval.list': () => [execRequest(false)],
      'exec.approval.resolve': () => ({ ok: true }),
    });
    renderWithStores(app, <ApprovalsView />);
    const card = within(await screen.findByTestId('approval-card'));
    expect(card.getByText('It talks to the network')).toBeTruthy();
    const choice = card.getByLabelText('Always allow:');
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'any use of this program',
      'only these exact arguments',
      'these exact arguments, only in /home/me/project',
    ]);
    expect(card.getByText('Adds to the allowlist: /usr/bin/curl')).toBeTruthy();
    fireEvent.change(choice, { target: { value: 'folder' } });
    expect(card.getByText('Adds to the allowlist: /usr/bin/curl ^-o out\\.json https://example\\.com$')).toBeTruthy();
    fireEvent.click(card.getByRole('button', { name: /Always allow/ }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([
        { id: 'ap1', decision: 'allow-always', allowAlwaysScope: 'folder' },
      ]),
    );
  });

  it('S with several scopes sends nothing: it focuses the "Always allow:" choice, and Always sends the pick', async () => {
    app = startTestApp({
      'exec.approval.list': () => [execRequest(false)],
      'exec.approval.resolve': () => ({ ok: true }),
    });
    renderWithStores(app, <ApprovalsView />);
    const card = within(await screen.findByTestId('approval-card'));
    const choice = card.getByLabelText('Always allow:');
    fireEvent.keyDown(window, { key: 's' });
    expect(document.activeElement).toBe(choice);
    // Keys typed into the choice are the select's own, not shortcuts.
    fireEvent.keyDown(choice, { key: 's' });
    expect(app.gateway.calls('exec.approval.resolve')).toEqual([]);
    fireEvent.change(choice, { target: { value: 'exact' } });
    fireEvent.click(card.getByRole('button', { name: /Always allow/ }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([
        { id: 'ap1', decision: 'allow-always', allowAlwaysScope: 'exact' },
      ]),
    );
  });

  it('a destructive command: only the narrow rules, the folder one included, never the binary', async () => {
    app = startTestApp({
      'exec.approval.list': () => [execRequest(true)],
      'exec.approval.resolve': () => ({ ok: true }),
    });
    renderWithStores(app, <ApprovalsView />);
    const card = within(await screen.findByTestId('approval-card'));
    const choice = card.getByLabelText('Always allow:');
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['exact', 'folder']);
    fireEvent.change(choice, { target: { value: 'folder' } });
    fireEvent.click(card.getByRole('button', { name: /Always allow/ }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([
        { id: 'ap1', decision: 'allow-always', allowAlwaysScope: 'folder' },
      ]),
    );
  });
});
