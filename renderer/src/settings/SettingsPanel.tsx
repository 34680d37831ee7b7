import { useEffect, useRef, useState } from 'react';
import type { RetentionPreview, SettingsPatch } from '../../../shared/contract';
import { THEMES } from '../common/contract-constants';
import { formatBytes, formatCount, formatNumber } from '../common/format';
import { useApi, useApp } from '../store/context';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { InstancesSettings } from './InstancesSettings';
import { ComfyNodeRules } from '../library/node-rules/ComfyNodeRules';
import { LibraryFolders } from '../library/folders/LibraryFolders';
import { LibraryLocationSection } from '../library/location/LibraryLocationSection';
import { OrphansRow } from '../library/location/OrphansRow';
import { ProviderSettingsCard } from './ProviderSettingsCard';
import { UpdatesSettings } from './UpdatesSettings';
import { SpendSection } from './spend/SpendSection';
import { FindEngines } from './FindEngines';
import { BUILTIN_DESCRIPTION, groupByWhereItRuns } from '../../../shared/providers/groups';

function numberOrNull(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

export function SettingsPanel() {
  const settings = useApp((s) => s.settings);
  const providers = useApp((s) => s.providers);
  const stats = useApp((s) => s.stats);
  const update = useApp((s) => s.updateSettings);
  const setPanel = useApp((s) => s.setPanel);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const api = useApi();
  const ref = useRef<HTMLDialogElement>(null);
  const [moving, setMoving] = useState<{ patch: SettingsPatch; preview: RetentionPreview } | null>(null);
  const [concurrency, setConcurrency] = useState('');
  const [trashDays, setTrashDays] = useState('');
  const [maxJobs, setMaxJobs] = useState('');
  const [maxAgeDays, setMaxAgeDays] = useState('');
  const [maxGb, setMaxGb] = useState('');

  // Jobs since the last look may have changed what a provider's card should say.
  const refreshProviders = useApp((s) => s.refreshProviders);
  useEffect(() => void refreshProviders(), [refreshProviders]);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  // Opened at a group (the empty state's "Add a hosted key"): its heading is scrolled to and focused, after
  // showModal (above) has put focus in the dialog.
  const section = useApp((s) => s.settingsSection);
  const openSettingsAt = useApp((s) => s.openSettingsAt);
  useEffect(() => {
    const heading = section === null ? null : document.getElementById(`providers-${section}`);
    // Not drawn yet (settings or providers still loading): tried again when they arrive.
    if (heading === null) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus();
    openSettingsAt(null);
  }, [section, settings, providers, openSettingsAt]);

  // The fields follow the settings as they load or change (adjusted while rendering, not in an effect).
  const [shown, setShown] = useState<typeof settings>(null);
  if (shown !== settings) {
    setShown(settings);
    if (settings !== null) {
      setConcurrency(String(settings.concurrency.global));
      setTrashDays(String(settings.retention.trashAutoEmptyDays));
      setMaxJobs(settings.retention.maxJobs === null ? '' : String(settings.retention.maxJobs));
      setMaxAgeDays(settings.retention.maxAgeDays === null ? '' : String(settings.retention.maxAgeDays));
      setMaxGb(
        settings.retention.maxBytes === null
          ? ''
          : String(Math.round((settings.retention.maxBytes / 1024 ** 3) * 10) / 10),
      );
    }
  }

  const close = () => setPanel('none');

  const save = async (patch: SettingsPatch) => {
    if (await update(patch)) toast({ kind: 'info', message: 'Settings saved.' });
  };

  const saveGeneral = async () => {
    const gb = numberOrNull(maxGb);
    const limits = {
      maxJobs: numberOrNull(maxJobs),
      maxAgeDays: numberOrNull(maxAgeDays),
      maxBytes: gb === null ? null : Math.round(gb * 1024 ** 3),
    };
    const patch: SettingsPatch = {
      concurrency: { global: Number(concurrency) },
      retention: { trashAutoEmptyDays: Number(trashDays), ...limits },
    };
    const current = settings?.retention;
    const changed =
      current === undefined ||
      limits.maxJobs !== current.maxJobs ||
      limits.maxAgeDays !== current.maxAgeDays ||
      limits.maxBytes !== current.maxBytes;
    if (changed) {
      // Saving limits moves jobs to the trash at once: the person sees how many before anything moves.
      try {
        const preview = await api.call('jobs.previewRetention', limits);
        if (preview.jobs > 0) {
          setMoving({ patch, preview });
          return;
        }
      } catch (error) {
        reportError(error);
        return;
      }
    }
    await save(patch);
  };

  return (
    <dialog
      ref={ref}
      className="dialog settings"
      aria-labelledby="settings-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <div className="dialog-head">
        <h2 id="settings-title">Settings</h2>
        <button type="button" className="btn small" onClick={close}>
          Close
        </button>
      </div>
      {settings === null ? (
        <div className="skeleton line" aria-label="Loading settings" />
      ) : (
        <div className="settings-body">
          <section aria-labelledby="theme-title">
            <h3 id="theme-title">Appearance</h3>
            <div className="chips" role="radiogroup" aria-labelledby="theme-title">
              {THEMES.map((theme) => (
                <button
                  key={theme}
                  type="button"
                  role="radio"
                  aria-checked={settings.theme === theme}
                  className={settings.theme === theme ? 'chip active' : 'chip'}
                  onClick={() => void update({ theme })}
                >
                  {theme === 'system' ? 'Follow system' : theme === 'dark' ? 'Dark' : 'Light'}
                </button>
              ))}
            </div>
          </section>

          <section aria-labelledby="providers-title">
            <h3 id="providers-title">Providers</h3>
            <FindEngines />
            <h4 className="subsection-title">Servers</h4>
            <InstancesSettings />
            {groupByWhereItRuns(providers).map(({ group, title, items }) => (
              <section key={group} aria-labelledby={`providers-${group}`} data-group={group}>
                <h4 id={`providers-${group}`} className="subsection-title provider-group-title" tabIndex={-1}>
                  {title}
                </h4>
                {items.map((provider) => (
                  <ProviderSettingsCard
                    key={provider.id}
                    provider={provider}
                    settings={settings.providers[provider.id]}
                    {...(provider.kind === 'builtin' ? { note: BUILTIN_DESCRIPTION } : {})}
                  />
                ))}
              </section>
            ))}
          </section>

          <SpendSection />

          <section aria-labelledby="work-title">
            <h3 id="work-title">Work and retention</h3>
            <form
              className="settings-grid"
              onSubmit={(e) => {
                e.preventDefault();
                void saveGeneral();
              }}
            >
              <label>
                Jobs running at once
                <input
                  type="number"
                  min={1}
                  max={64}
                  value={concurrency}
                  onChange={(e) => setConcurrency(e.target.value)}
                />
              </label>
              <label>
                Empty trash after (days, 0 = never)
                <input
                  type="number"
                  min={0}
                  max={3650}
                  value={trashDays}
                  onChange={(e) => setTrashDays(e.target.value)}
                />
              </label>
              <label>
                Keep at most (jobs, blank = no limit)
                <input type="number" min={1} value={maxJobs} onChange={(e) => setMaxJobs(e.target.value)} />
              </label>
              <label>
                Keep at most (GB, blank = no limit)
                <input type="number" min={0.1} step={0.1} value={maxGb} onChange={(e) => setMaxGb(e.target.value)} />
              </label>
              <label>
                Keep for at most (days, blank = forever)
                <input type="number" min={1} value={maxAgeDays} onChange={(e) => setMaxAgeDays(e.target.value)} />
              </label>
              <p className="hint">
                Over a limit, the oldest jobs move to the trash (favorites never do); the trash then empties itself as
                set above.
              </p>
              <button type="submit" className="btn primary">
                Save
              </button>
            </form>
          </section>

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
                    {formatNumber(stats.total)} ({formatNumber(stats.favorites)} favorites,{' '}
                    {formatNumber(stats.trashed)} in trash)
                  </dd>
                  {stats.orphans.files > 0 ? (
                    <OrphansRow files={stats.orphans.files} bytes={stats.orphans.bytes} />
                  ) : null}
                  {stats.missingFiles > 0 ? (
                    <>
                      <dt>Missing files</dt>
                      <dd className="warn-text">{formatNumber(stats.missingFiles)} images have no file on disk</dd>
                    </>
                  ) : null}
                </>
              )}
            </dl>
            <label className="check">
              <input
                type="checkbox"
                checked={settings.library.xmpSidecars}
                onChange={(e) => void save({ library: { xmpSidecars: e.target.checked } })}
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
          <UpdatesSettings />
        </div>
      )}
      {moving === null ? null : (
        <ConfirmDialog
          title={`Move ${formatCount(moving.preview.jobs, 'job')} to the trash?`}
          confirmLabel="Move to trash and save"
          onCancel={() => setMoving(null)}
          onConfirm={() => {
            const { patch } = moving;
            setMoving(null);
            void save(patch);
          }}
        >
          <p data-testid="retention-counts">
            These limits move {formatCount(moving.preview.jobs, 'job')} with{' '}
            {formatCount(moving.preview.images, 'image')} ({formatBytes(moving.preview.bytes)}) to the trash now, oldest
            first. Favorites never move.
          </p>
          <p className="muted">
            {Number(trashDays) > 0
              ? `You can restore them from the trash; it deletes them for good after ${trashDays} days.`
              : 'You can restore them from the trash until you empty it.'}
          </p>
        </ConfirmDialog>
      )}
    </dialog>
  );
}
