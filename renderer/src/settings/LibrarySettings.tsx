import type { Settings } from '../../../shared/contract';
import { formatBytes, formatCount, formatNumber } from '../common/format';
import { useApp } from '../store/context';
import { ComfyNodeRules } from '../library/node-rules/ComfyNodeRules';
import { LibraryFolders } from '../library/folders/LibraryFolders';
import { LibraryLocationSection } from '../library/location/LibraryLocationSection';
import { OrphansRow } from '../library/location/OrphansRow';

/** Settings → Library: what the library holds, sidecars, where it lives, its folders and the ComfyUI node rules. */
export function LibrarySettings({ settings }: { settings: Settings }) {
  const stats = useApp((s) => s.stats);
  const update = useApp((s) => s.updateSettings);
  const toast = useApp((s) => s.toast);
  const setSidecars = async (on: boolean) => {
    if (await update({ library: { xmpSidecars: on } })) toast({ kind: 'info', message: 'Settings saved.' });
  };
  return (
    <>
      <section aria-labelledby="storage-title">
        <h3 id="storage-title">Library</h3>
        <dl className="details-list">
          <dt>Data folder</dt>
          <dd className="mono">{settings.dataDir}</dd>
          {stats === null ? null : (
            <>
              <dt>Images</dt>
              <dd>
                {formatNumber(stats.images)} ({formatBytes(stats.mediaBytes)})
              </dd>
              <dt>Database</dt>
              <dd>{formatBytes(stats.databaseBytes)}</dd>
              <dt>Jobs</dt>
              <dd>
                {/* Jobs, not images (the tabs count images): a job trashed whole, not a single image trashed alone. */}
                {formatNumber(stats.total)} ({formatCount(stats.favorites, 'favorite')}, {formatNumber(stats.trashed)}{' '}
                trashed whole)
              </dd>
              {stats.orphans.files > 0 ? <OrphansRow files={stats.orphans.files} bytes={stats.orphans.bytes} /> : null}
              {stats.missingFiles > 0 ? (
                <>
                  <dt>Missing files</dt>
                  <dd className="warn-text">
                    {stats.missingFiles === 1
                      ? '1 image has no file on disk'
                      : `${formatCount(stats.missingFiles, 'image')} have no file on disk`}
                  </dd>
                </>
              ) : null}
            </>
          )}
        </dl>
        <label className="check">
          <input
            type="checkbox"
            checked={settings.library.xmpSidecars}
            onChange={(e) => void setSidecars(e.target.checked)}
          />
          <span>
            Write XMP sidecars
            <span className="muted small">
              {' '}
              — ratings and tags to photo.png.xmp beside imported originals, for other tools. Never over a sidecar
              Atelier did not write.
            </span>
          </span>
        </label>
      </section>
      <LibraryLocationSection />
      <LibraryFolders />
      <ComfyNodeRules />
    </>
  );
}
