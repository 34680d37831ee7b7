import { useState } from 'react';
import { useApi, useApp } from '../store/context';
import { useUpdateStatus } from '../settings/update-status';
import '../settings/updates.css';

/** A downloaded update, offered once at the top: restart now, or later (it then installs at the next quit). */
export function UpdateBanner() {
  const api = useApi();
  const reportError = useApp((s) => s.reportError);
  const status = useUpdateStatus(api);
  const [later, setLater] = useState<string | null>(null);
  const [restarting, setRestarting] = useState(false);
  if (status?.state !== 'ready' || later === status.version) return null;
  const restart = async () => {
    setRestarting(true);
    try {
      await api.call('updates.restart', {});
    } catch (error) {
      setRestarting(false);
      reportError(error);
    }
  };
  return (
    <div className="banners">
      <div className="banner update-ready" role="status">
        <span>
          <strong>Update ready</strong> — Atelier {status.version} is downloaded. Running jobs get a moment to finish
          first.
        </span>
        <span className="update-actions">
          <button type="button" className="btn small ghost" onClick={() => setLater(status.version)}>
            Later
          </button>
          <button type="button" className="btn small primary" disabled={restarting} onClick={() => void restart()}>
            {restarting ? 'Restarting…' : 'Restart to update'}
          </button>
        </span>
      </div>
    </div>
  );
}
