import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportItemView, ImportReportView } from '../../../src-main/protocol/methods/import.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
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
