import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type { SkillInfo, SkillProposalInfo } from '../../../src-main/protocol/methods/skills.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { SkillsView } from './skills-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const skill = (name: string, more: Partial<SkillInfo> = {}): SkillInfo => ({
  name,
  description: `What ${name} does.`,
  origin: 'bundled',
  files: [],
  hasScripts: false,
  enabled: true,
  pinned: false,
  stale: false,
  uses: 0,
  ...more,
});

/** A scripted gateway holding skills per agent, as skills.* would. */
function skillsApp() {
  const state = {
    skills: [
      skill('commit-message', { uses: 3, lastUsedAt: 1_700_000_000_000 }),
      skill('find-large-files', { hasScripts: true, files: ['scripts/largest.sh'], stale: true }),
    ],
    proposals: [
      {
        id: 'p1',
        agentId: 'main',
        name: 'count-lines',
        description: 'Count lines by language.',
        createdAt: 1,
        reasons: ['it has scripts (scripts/count.sh): a person approves it in the Skills view first'],
        files: ['scripts/count.sh'],
      },
    ] as SkillProposalInfo[],
    asked: [] as string[],
  };
  const find = (name: unknown) => {
    const found = state.skills.find((s) => s.name === name);
    if (!found) throw new GatewayError('NOT_FOUND', `no skill named "${String(name)}"`);
    return found;
  };
  app = startTestApp({
    'skills.list': (params) => {
      state.asked.push(String(params.agentId));
      return { agentId: params.agentId ?? 'main', skills: state.skills, proposals: state.proposals };
    },
    'skills.get': (params) => ({
      skill: find(params.name),
      text: `---\nname: ${params.name}\n---\n\n## Steps\n1. Go.`,
    }),
    'skills.disable': (params) => {
      find(params.name).enabled = false;
      return { skill: find(params.name) };
    },
    'skills.enable': (params) => {
      find(params.name).enabled = true;
      return { skill: find(params.name) };
    },
    'skills.pin': (params) => {
      find(params.name).pinned = params.pinned as boolean;
      return { skill: find(params.name) };
    },
    'skills.approve': (params) => {
      state.proposals = state.proposals.filter((p) => p.id !== params.id);
      state.skills.push(skill('count-lines', { origin: 'workspace', hasScripts: true }));
      return { name: 'count-lines', agentId: 'main' };
    },
  });
  return state;
}

describe('SkillsView', () => {
  it('lists skills with their origin, usage and flags, and reads one', async () => {
    skillsApp();
    renderWithStores(app, <SkillsView />);
    const commit = within(await screen.findByRole('listitem', { name: 'commit-message' }));
    expect(commit.getByText(/Read 3 times/)).toBeTruthy();
    expect(commit.getByText('bundled')).toBeTruthy();
    const large = within(screen.getByRole('listitem', { name: 'find-large-files' }));
    expect(large.getByText('bundled · has scripts · stale (unused 30 days)')).toBeTruthy();
    fireEvent.click(commit.getByRole('button', { name: 'Read' }));
    const reader = await screen.findByRole('region', { name: 'commit-message' });
    expect(within(reader).getByText(/## Steps/)).toBeTruthy();
  });

  it('disables and pins a skill for the agent, and approves a proposed one', async () => {
    const state = skillsApp();
    renderWithStores(app, <SkillsView />);
    const row = within(await screen.findByRole('listitem', { name: 'commit-message' }));
    fireEvent.click(row.getByLabelText('Enabled for this agent'));
    await waitFor(() => expect(state.skills[0]!.enabled).toBe(false));
    await waitFor(() =>
      expect(
        (
          within(screen.getByRole('listitem', { name: 'commit-message' })).getByLabelText(
            'Enabled for this agent',
          ) as HTMLInputElement
        ).checked,
      ).toBe(false),
    );
    fireEvent.click(row.getByRole('button', { name: 'Pin' }));
    await screen.findByRole('button', { name: 'Unpin' });

    const proposed = within(screen.getByRole('region', { name: 'Proposed by the agent' }));
    expect(proposed.getByText(/a person approves it in the Skills view first/)).toBeTruthy();
    fireEvent.click(proposed.getByRole('button', { name: 'Approve' }));
    await screen.findByRole('listitem', { name: 'count-lines' });
    expect(screen.queryByRole('region', { name: 'Proposed by the agent' })).toBeNull();
  });

  it('switches agent, and shows a gateway error', async () => {
    const state = skillsApp();
    renderWithStores(app, <SkillsView />);
    await screen.findByRole('listitem', { name: 'commit-message' });
    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: 'helper' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(state.asked).toContain('helper'));
    state.skills = [];
    await app.stores.skills.getState().read('ghost');
    expect((await screen.findByRole('alert')).textContent).toContain('no skill named "ghost"');
  });
});
