import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../stores/chat-message.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { MessageView } from './message-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const call = (output?: string): ChatMessage => ({
  id: 't1',
  role: 'tool',
  text: '',
  status: output === undefined ? 'streaming' : 'done',
  toolName: 'memory_search',
  toolInput: { query: 'Ada' },
  toolOutput: output,
});

describe('memory_search in the chat', () => {
  it('shows the notes it found by date, without the [category] tag, path or score', () => {
    app = startTestApp();
    renderWithStores(
      app,
      <MessageView
        message={call('memory/2026-12-03.md:4-4 (score 0.42)\n- 09:10 [entity] Ada works at the observatory')}
      />,
    );
    const found = screen.getByTestId('memory-search-call');
    expect(within(found).getByText('Looked in memory for “Ada”')).toBeTruthy();
    expect(within(found).getByText('1 found')).toBeTruthy();
    const note = within(found).getByTestId('memory-note');
    expect(within(note).getByText('Dec 3, 2026')).toBeTruthy();
    expect(note.textContent).toContain('works at the observatory');
    expect(found.textContent).not.toMatch(/\[entity\]|0\.42|2026-12-03\.md/);
  });

  it('says when nothing was found', () => {
    app = startTestApp();
    renderWithStores(app, <MessageView message={call('No matching memories.')} />);
    expect(screen.getByText('nothing found')).toBeTruthy();
  });
});
