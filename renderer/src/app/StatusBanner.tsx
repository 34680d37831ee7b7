import { useApp } from '../store/context';

/** Offline or a provider down: said once, at the top, while history stays usable. */
export function StatusBanner() {
  const online = useApp((s) => s.online);
  const providerDown = useApp((s) => s.providerDown);
  const providers = useApp((s) => s.providers);
  const down = Object.entries(providerDown);
  const names = Object.fromEntries(providers.map((p) => [p.id, p.name]));
  const openSettings = useApp((s) => s.setPanel);
  if (online && down.length === 0) return null;
  return (
    <div className="banners">
      {online ? null : (
        <div className="banner warn" role="status">
          <strong>Connection to Atelier lost.</strong> Reconnecting… Your history stays browsable; new images will
          appear once it is back.
        </div>
      )}
      {down.map(([id, message]) => (
        <div key={id} className="banner warn" role="status">
          <strong>{names[id] ?? id} is unavailable.</strong> {message}{' '}
          <button type="button" className="link" onClick={() => openSettings('settings')}>
            Check settings
          </button>
        </div>
      ))}
    </div>
  );
}
