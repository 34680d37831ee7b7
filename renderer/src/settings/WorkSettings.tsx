import { useState } from 'react';
import type { RetentionPreview, Settings, SettingsPatch } from '../../../shared/contract';
import { formatBytes, formatCount } from '../common/format';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { useApi, useApp } from '../store/context';

function numberOrNull(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/** Settings → Work and retention: how many jobs run at once, and the limits that move old jobs to the trash. */
export function WorkSettings({ settings }: { settings: Settings }) {
  const update = useApp((s) => s.updateSettings);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const api = useApi();
  const [moving, setMoving] = useState<{ patch: SettingsPatch; preview: RetentionPreview } | null>(null);
  const [concurrency, setConcurrency] = useState('');
  const [trashDays, setTrashDays] = useState('');
  const [maxJobs, setMaxJobs] = useState('');
  const [maxAgeDays, setMaxAgeDays] = useState('');
  const [maxGb, setMaxGb] = useState('');

  // The fields follow the settings as they load or change (adjusted while rendering, not in an effect).
  const [shown, setShown] = useState<Settings | null>(null);
  if (shown !== settings) {
    setShown(settings);
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
    const current = settings.retention;
    const changed =
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
          <input type="number" min={1} max={64} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} />
        </label>
        <label>
          Empty trash after (days, 0 = never)
          <input type="number" min={0} max={3650} value={trashDays} onChange={(e) => setTrashDays(e.target.value)} />
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
          Over a limit, the oldest jobs move to the trash (favorites never do); the trash then empties itself as set
          above.
        </p>
        <button type="submit" className="btn primary">
          Save
        </button>
      </form>
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
              ? `You can restore them from the trash; it deletes them for good after ${formatCount(Number(trashDays), 'day')}.`
              : 'You can restore them from the trash until you empty it.'}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
