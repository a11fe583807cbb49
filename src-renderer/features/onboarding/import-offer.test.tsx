import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { importReasonCodes } from '../../../src-main/protocol/import-reason-codes.js';
import type { ImportItemView, ImportReportView } from '../../../src-main/protocol/methods/import.js';
import { en } from '../../i18n/en.js';
import { createTranslate } from '../../i18n/translate.js';
import { zh } from '../../i18n/zh.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { importReasonKey, importReasonText } from './import-reason-words.js';
import { OnboardingCard } from './onboarding-card.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const report = (applied: boolean, items: ImportItemView[]): ImportReportView => {
  const counts = { import: 0, present: 0, conflict: 0, skipped: 0, imported: 0, failed: 0 };
  for (const item of items) counts[item.status] += 1;
  return { source: 'openclaw', from: '/home/ada/.openclaw', applied, items, counts };
};
const soul = {
  kind: 'workspace-file',
  target: 'workspace/SOUL.md',
  origin: '/home/ada/.openclaw/workspace/SOUL.md',
} as const;
const state = { kind: 'session', target: '-', origin: 'state.db' } as const;

describe('import offer in onboarding', () => {
  it('offers the import when OpenClaw is found, shows the dry run, then the result', async () => {
    const calls: string[] = [];
    app = startTestApp({
      'models.list': () => ({ models: [] }),
      'import.detect': () => ({
        sources: [
          { source: 'openclaw', from: '/home/ada/.openclaw', found: true },
          { source: 'hermes', from: '/home/ada/.hermes', found: false },
        ],
      }),
      'import.plan': () => {
        calls.push('plan');
        return {
          report: report(false, [
            { ...soul, status: 'import' },
            { ...state, status: 'skipped', reason: 'SQLite is not read' },
          ]),
        };
      },
      'import.apply': () => {
        calls.push('apply');
        return {
          report: report(true, [
            { ...soul, status: 'imported' },
            { ...state, status: 'skipped', reason: 'SQLite is not read' },
          ]),
        };
      },
    });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    expect(await screen.findByText(/Found OpenClaw at \/home\/ada\/.openclaw/)).toBeTruthy();
    expect(screen.queryByText(/Found Hermes/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Import from OpenClaw…' }));
    expect(await screen.findByText(/Import plan: 1 to import, 0 conflicts/)).toBeTruthy();
    expect(screen.getByText('workspace/SOUL.md')).toBeTruthy();
    expect(screen.getByText(/SQLite is not read/)).toBeTruthy();
    expect(calls).toEqual(['plan']);

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText(/Imported 1, failed 0/)).toBeTruthy();
    expect(calls).toEqual(['plan', 'apply']);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(/Imported 1/)).toBeNull();
  });

  it('offers nothing when neither tool is on the machine', async () => {
    app = startTestApp({
      'models.list': () => ({ models: [] }),
      'import.detect': () => ({ sources: [{ source: 'openclaw', from: '/x/.openclaw', found: false }] }),
    });
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    expect(await screen.findByText('Welcome to Hearth')).toBeTruthy();
    expect(screen.queryByText(/Found /)).toBeNull();
  });
});

describe("import reasons in the person's language", () => {
  it('a Chinese plan words a conflict and a skipped item from their codes, params filled in', async () => {
    app = startTestApp({
      'models.list': () => ({ models: [] }),
      'import.detect': () => ({ sources: [{ source: 'openclaw', from: '/home/ada/.openclaw', found: true }] }),
      'import.plan': () => ({
        report: report(false, [
          {
            kind: 'workspace-file',
            target: 'workspace/USER.md',
            origin: '/home/ada/.openclaw/workspace/USER.md',
            status: 'conflict',
            reason: "Hearth's USER.md differs and is kept; merge by hand from the openclaw copy if you want it",
            reasonCode: 'workspace-file-differs',
            reasonParams: { file: 'USER.md', source: 'openclaw' },
          },
          {
            ...state,
            status: 'skipped',
            reason: 'sessions kept in SQLite are not read',
            reasonCode: 'sqlite-sessions',
            reasonParams: {},
          },
          {
            kind: 'cron-job',
            target: 'cron job "Moon" (every full moon) for main',
            origin: 'cron/jobs.json moon',
            status: 'skipped',
            reason: 'schedule not understood: unknown schedule "every full moon"',
            reasonCode: 'schedule-not-understood',
            reasonParams: { detail: 'unknown schedule "every full moon"' },
          },
          {
            kind: 'other',
            target: '-',
            origin: 'plugins/',
            status: 'skipped',
            reason: 'a reason from a newer gateway',
            reasonCode: 'added-in-a-later-gateway',
            reasonParams: {},
          },
        ]),
      }),
    });
    act(() => app.stores.ui.getState().setLanguage('zh'));
    renderWithStores(app, <OnboardingCard />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByRole('button', { name: '从 OpenClaw 导入…' }));
    expect(
      await screen.findByText('— Hearth 的 USER.md 内容不同，予以保留；如有需要，请手动从 openclaw 的副本合并'),
    ).toBeTruthy();
    expect(
      screen.getByText(
        '— 保存在 SQLite 中的对话不会读取：请用 `hermes sessions export` 导出到 sessions/<id>.jsonl 后再导入',
      ),
    ).toBeTruthy();
    // The schedule parser's own words stay as they are, inside the Chinese sentence.
    expect(screen.getByText('— 无法识别的时间安排：unknown schedule "every full moon"')).toBeTruthy();
    // A code this renderer has no words for shows the gateway's English, never nothing.
    expect(screen.getByText('— a reason from a newer gateway')).toBeTruthy();
    expect(screen.queryByText(/differs and is kept|SQLite are not read/)).toBeNull();
  });

  it('has English and Chinese words for every code main gives, with the params the words use', () => {
    const en_ = createTranslate('en');
    const zh_ = createTranslate('zh');
    const missing: string[] = [];
    for (const code of importReasonCodes) {
      const key = importReasonKey(code);
      const english = importReasonText(en_, { reasonCode: code, reasonParams: {} });
      const chinese = importReasonText(zh_, { reasonCode: code, reasonParams: {} });
      if (!key?.startsWith('import.why.') || !en[key]?.trim() || !zh[key]?.trim() || chinese === english)
        missing.push(code);
    }
    expect(missing).toEqual([]);
  });

  it('falls back to the English reason only for an unknown code, and to the code when even that is missing', () => {
    const zh_ = createTranslate('zh');
    expect(importReasonText(zh_, { reason: 'kept', reasonCode: 'agent-differs', reasonParams: { agent: 'dev' } })).toBe(
      '保留 Hearth 的代理 dev',
    );
    expect(importReasonText(zh_, { reason: 'older words', reasonCode: 'toString', reasonParams: {} })).toBe(
      'older words',
    );
    expect(importReasonText(zh_, { reason: 'an older gateway: no code' })).toBe('an older gateway: no code');
    expect(importReasonText(zh_, { reasonCode: 'brand-new' })).toBe('brand-new');
    expect(importReasonText(zh_, {})).toBeUndefined();
  });
});
