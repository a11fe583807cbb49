import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { canvasUrl } from '../../stores/canvas-store.js';
import './canvas.css';

/**
 * The agent-written page. `allow-scripts` without `allow-same-origin` gives it an opaque
 * origin: it cannot read the app's storage, cookies or the preload bridge, whatever it contains.
 */
export function CanvasView() {
  const t = useT();
  const { canvas, gatewayOrigin } = useStores();
  const revision = useDomain('canvas', (s) => s.revision);
  return (
    <div className="canvas-view">
      <header className="view-bar">
        <h1>{t('canvas.title')}</h1>
        <span className="faint">{t('canvas.note')}</span>
        <button type="button" className="button small" onClick={() => canvas.getState().reload()}>
          {t('canvas.reload')}
        </button>
      </header>
      <iframe
        key={revision}
        className="canvas-frame"
        title={t('canvas.title')}
        src={canvasUrl(gatewayOrigin, revision)}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        data-testid="canvas-frame"
      />
    </div>
  );
}
