import { useStores, useT } from '../../app/stores-context.js';
import type { PairRequest } from '../../stores/devices-store.js';
import { shortDeviceId } from './pair-code.js';
import './pairing.css';

/** Desktop: one device asking to pair, with what it is and what it wants, to approve or reject. */
export function PairRequestCard({ request }: { request: PairRequest }) {
  const t = useT();
  const { devices } = useStores();
  return (
    <div className="card device pair-request" data-testid="pair-request">
      <div>
        <div className="row">
          <strong>{request.name}</strong>
          {request.isRepair && <span className="badge warn">Known device, new token?</span>}
        </div>
        <dl>
          <dt>Id</dt>
          <dd>
            <code>{shortDeviceId(request.deviceId)}</code>
          </dd>
          {request.platform && (
            <>
              <dt>Platform</dt>
              <dd>{request.platform}</dd>
            </>
          )}
          {request.remoteAddress && (
            <>
              <dt>IP</dt>
              <dd>{request.remoteAddress}</dd>
            </>
          )}
          {request.role && (
            <>
              <dt>Role</dt>
              <dd>{request.role}</dd>
            </>
          )}
        </dl>
        <div className="scopes">
          {request.scopes.map((scope) => (
            <span key={scope} className="badge plain">
              {scope}
            </span>
          ))}
        </div>
      </div>
      <div className="row">
        <button type="button" className="button" onClick={() => void devices.getState().reject(request.requestId)}>
          {t('devices.reject')}
        </button>
        <button
          type="button"
          className="button primary"
          onClick={() => void devices.getState().approve(request.requestId)}
        >
          {t('devices.approve')}
        </button>
      </div>
    </div>
  );
}
