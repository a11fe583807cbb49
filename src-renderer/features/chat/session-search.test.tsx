import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { SessionList } from './session-list.js';

// The chat list's search finds chats by what was said in them (sessions.search), not only titles.

let app: TestApp;
afterEach(() => app?.dispose());

const row = (key: string, title: string) => ({
  key,
  kind: 'direct',
  agentId: 'main',
  sessionId: `s-${key}`,
  displayName: title,
  title,
  createdAt: 0,
  updatedAt: 1,
});

describe('chat list search', () => {
  it('shows a chat whose messages match, with the snippet, and asks the gateway with the typed words', async () => {
    const asked: unknown[] = [];
    app = startTestApp({
      'sessions.list': () => ({
        count: 2,
        totalCount: 2,
        nextOffset: null,
        hasMore: false,
        sessions: [row('agent:main:health', 'Appointments'), row('agent:main:trip', 'Lyon trip')],
      }),
      'sessions.search': (params) => {
        asked.push(params);
        return {
          results: [
            {
              key: 'agent:main:health',
              agentId: 'main',
              sessionId: 's-agent:main:health',
              displayName: 'Appointments',
              updatedAt: 1,
              messageId: 'm1',
              role: 'user',
              ts: 1,
              snippet: 'My dentist appointment moved to Tuesday',
              matches: 1,
            },
          ],
        };
      },
    });
    renderWithStores(app, <SessionList />);
    await screen.findByText('Lyon trip');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'dentist' } });
    await screen.findByText('My dentist appointment moved to Tuesday');
    expect(screen.getByText('Appointments')).toBeTruthy();
    expect(screen.queryByText('Lyon trip')).toBeNull();
    expect(asked).toEqual([{ query: 'dentist', limit: 50 }]);

    // Cleared: every chat again, no snippets.
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } });
    await waitFor(() => expect(screen.getByText('Lyon trip')).toBeTruthy());
    expect(screen.queryByText('My dentist appointment moved to Tuesday')).toBeNull();
  });
});
