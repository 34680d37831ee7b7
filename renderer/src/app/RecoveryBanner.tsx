import { useState } from 'react';
import { formatCount } from '../common/format';
import { useApp } from '../store/context';

/**
 * The database knows fewer than half of the images in the library folder (new, emptied or replaced): nothing was
 * removed, and the history can be rebuilt from the settings every image carries.
 */
export function RecoveryBanner() {
  const recovery = useApp((s) => s.stats?.recovery);
  const rebuild = useApp((s) => s.rebuildHistory);
  const [asked, setAsked] = useState(false);
  if (recovery === undefined || (recovery.state !== 'needed' && recovery.state !== 'rebuilding')) return null;
  const rebuilding = asked || recovery.state === 'rebuilding';
  const start = async () => {
    setAsked(true);
    try {
      await rebuild();
    } finally {
      setAsked(false);
    }
  };
  return (
    <div className="banners">
      <div className="banner warn recovery" role="status">
        <span>
          <strong>
            Your history does not list {formatCount(recovery.unknownFiles, 'image')} in your library folder.
          </strong>{' '}
          Atelier&apos;s database looks new, emptied or replaced. Every file was left where it is; each image carries
          its own settings, so the history can be rebuilt from them.
        </span>
        <button type="button" className="btn small primary" disabled={rebuilding} onClick={() => void start()}>
          {rebuilding ? 'Rebuilding…' : 'Rebuild history from images'}
        </button>
      </div>
    </div>
  );
}
