import { useApi, useApp } from '../store/context';
import { updateStatusLine, useUpdateStatus } from './update-status';
import { useNow } from '../common/use-now';
import './updates.css';

/** Settings → Updates: the one switch, and where the updater stands. */
export function UpdatesSettings() {
  const api = useApi();
  const auto = useApp((s) => s.settings?.updates.auto ?? true);
  const update = useApp((s) => s.updateSettings);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const status = useUpdateStatus(api);
  const now = useNow();
  const restart = () => api.call('updates.restart', {}).catch(reportError);
  return (
    <section aria-labelledby="updates-title">
      <h3 id="updates-title">Updates</h3>
      <label className="check">
        <input
          type="checkbox"
          checked={auto}
          onChange={async (e) => {
            if (await update({ updates: { auto: e.target.checked } }))
              toast({ kind: 'info', message: 'Settings saved.' });
          }}
        />
        <span>
          Update Atelier automatically
          <span className="muted small">
            {' '}
            — checks at start and daily, downloads in the background, installs when you restart.
          </span>
        </span>
      </label>
      {status === null ? null : (
        <p className="update-status muted" role="status" data-state={status.state}>
          {updateStatusLine(status, now)}
          {status.state === 'ready' ? (
            <button type="button" className="btn small primary" onClick={() => void restart()}>
              Restart to update
            </button>
          ) : null}
        </p>
      )}
    </section>
  );
}
