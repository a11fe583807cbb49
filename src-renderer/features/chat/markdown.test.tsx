import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { Markdown } from './markdown.js';

let app: TestApp | undefined;
afterEach(() => app?.dispose());

describe('Markdown', () => {
  it('renders GFM tables, task lists and strikethrough, and copies a code block', async () => {
    app = startTestApp({});
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void copied.push(text) },
    });
    const text = [
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '- [x] done',
      '- [ ] todo',
      '',
      '~~gone~~',
      '',
      '```ts',
      'const x = 1;',
      '```',
    ].join('\n');
    const { container } = renderWithStores(app, <Markdown text={text} />);
    expect(screen.getByRole('table')).toBeTruthy();
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', '2']);
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(container.querySelector('del')?.textContent).toBe('gone');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(copied).toEqual(['const x = 1;']));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
  });
});
