import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CANVAS_EMPTY_MESSAGE } from '../../../src-main/protocol/methods/canvas.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { CanvasView } from './canvas-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
  delete document.documentElement.dataset.theme;
});

const frame = () => screen.getByTestId('canvas-frame') as HTMLIFrameElement;
const post = (source: Window | null, type: string) =>
  act(() => window.dispatchEvent(new MessageEvent('message', { data: { type }, source })));

describe('CanvasView', () => {
  it('asks the gateway in the app theme, and explains the canvas when its page says it is empty', () => {
    document.documentElement.dataset.theme = 'dark';
    app = startTestApp();
    renderWithStores(app, <CanvasView />);
    expect(frame().getAttribute('src')).toBe('/__hearth__/canvas/?v=0&theme=dark');
    expect(screen.queryByTestId('canvas-empty')).toBeNull();

    // A message from anywhere but the frame is not believed.
    post(window, CANVAS_EMPTY_MESSAGE);
    expect(screen.queryByTestId('canvas-empty')).toBeNull();

    post(frame().contentWindow, CANVAS_EMPTY_MESSAGE);
    expect(screen.getByRole('heading', { name: 'Nothing on the canvas yet' })).toBeTruthy();
    expect(frame().hidden).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Ask in the chat' }));
    expect(app.stores.ui.getState()).toMatchObject({ view: 'chat', focusRequest: 'composer' });
  });

  it('shows the page again when the agent writes one (canvas.changed)', () => {
    app = startTestApp();
    renderWithStores(app, <CanvasView />);
    post(frame().contentWindow, CANVAS_EMPTY_MESSAGE);
    expect(screen.getByTestId('canvas-empty')).toBeTruthy();
    act(() => app.stores.canvas.getState().reload());
    expect(screen.queryByTestId('canvas-empty')).toBeNull();
    expect(frame().hidden).toBe(false);
    expect(frame().getAttribute('src')).toBe('/__hearth__/canvas/?v=1&theme=light');
  });
});
