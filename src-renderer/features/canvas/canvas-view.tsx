import { useEffect, useRef, useState } from 'react';
import { CANVAS_EMPTY_MESSAGE } from '../../../src-main/protocol/methods/canvas.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { canvasUrl } from '../../stores/canvas-store.js';
import { Icon } from '../../ui/icons.js';
import './canvas.css';

type Shown = 'light' | 'dark';

/** The theme the app paints (theme.css's `data-theme`), followed live: the frame's page is told it. */
const read = (): Shown => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

function useShownTheme(): Shown {
  const [theme, setTheme] = useState<Shown>(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/**
 * The agent-written page. `allow-scripts` without `allow-same-origin` gives it an opaque
 * origin: it cannot read the app's storage, cookies or the preload bridge, whatever it contains.
 * When the agent has written nothing yet the gateway's empty page says so, and the view shows what
 * the canvas is for instead (the frame stays, hidden, so the next `canvas.changed` shows the page).
 */
export function CanvasView() {
  const t = useT();
  const { canvas, gatewayOrigin, ui } = useStores();
  const revision = useDomain('canvas', (s) => s.revision);
  const theme = useShownTheme();
  const frame = useRef<HTMLIFrameElement>(null);
  const [emptyAt, setEmptyAt] = useState<number>();
  const empty = emptyAt === revision;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // Only the frame's own page counts; its origin is opaque ("null"), so the source is the check.
      if (event.source !== frame.current?.contentWindow) return;
      if ((event.data as { type?: unknown } | null)?.type === CANVAS_EMPTY_MESSAGE) setEmptyAt(revision);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [revision]);

  return (
    <div className="canvas-view">
      <header className="view-bar">
        <h1>{t('canvas.title')}</h1>
        <span className="faint">{t('canvas.note')}</span>
        <button type="button" className="button small" onClick={() => canvas.getState().reload()}>
          {t('canvas.reload')}
        </button>
      </header>
      {empty && (
        <section className="canvas-empty" aria-labelledby="canvas-empty-title" data-testid="canvas-empty">
          <span className="canvas-empty-icon" aria-hidden="true">
            <Icon name="canvas" size={28} />
          </span>
          <h2 id="canvas-empty-title">{t('canvas.empty.title')}</h2>
          <p>{t('canvas.empty.body')}</p>
          <button type="button" className="button primary" onClick={() => ui.getState().requestFocus('composer')}>
            {t('canvas.empty.ask')}
          </button>
        </section>
      )}
      <iframe
        ref={frame}
        key={`${revision}-${theme}`}
        className="canvas-frame"
        hidden={empty}
        title={t('canvas.title')}
        src={canvasUrl(gatewayOrigin, revision, theme)}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        data-testid="canvas-frame"
      />
    </div>
  );
}
