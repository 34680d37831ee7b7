import { useState } from 'react';
import type { TrashSummary } from '../../../shared/contract';
import { formatBytes, formatCount } from '../common/format';
import { useApi, useApp } from '../store/context';
import { ConfirmDialog } from '../common/ConfirmDialog';

/** The trash's own header: what is in it, and the one irreversible action behind a confirmation. */
export function TrashView() {
  const api = useApi();
  const trashed = useApp((s) => s.stats?.trashed ?? 0);
  const days = useApp((s) => s.settings?.retention.trashAutoEmptyDays);
  const emptyTrash = useApp((s) => s.emptyTrash);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const [size, setSize] = useState<TrashSummary | 'measuring' | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = async () => {
    setSize('measuring');
    try {
      setSize(await api.call('jobs.trashSummary', {}));
    } catch (error) {
      setSize(null);
      reportError(error);
    }
  };

  const confirm = async () => {
    setBusy(true);
    const result = await emptyTrash();
    setBusy(false);
    setSize(null);
    if (result !== null) {
      toast({
        kind: 'info',
        message: `Trash emptied: ${formatCount(result.removed, 'job')} removed, ${formatBytes(result.bytesFreed)} freed.`,
      });
    }
  };

  return (
    <div className="trash-header">
      <p>
        {trashed === 0 ? 'Nothing in the trash.' : `${formatCount(trashed, 'job')} in the trash.`}
        {days !== undefined && days > 0
          ? ` Emptied automatically after ${days} days, except favorites: those stay until you empty the trash yourself.`
          : ''}
      </p>
      <button
        type="button"
        className="btn danger"
        disabled={trashed === 0 || size === 'measuring'}
        onClick={() => void ask()}
      >
        {size === 'measuring' ? 'Counting…' : 'Empty trash…'}
      </button>
      {size !== null && size !== 'measuring' ? (
        <ConfirmDialog
          title="Empty the trash?"
          confirmLabel={busy ? 'Emptying…' : 'Delete for good'}
          danger
          busy={busy}
          onCancel={() => setSize(null)}
          onConfirm={() => void confirm()}
        >
          <p>
            This permanently deletes {formatCount(size.jobs, 'job')} with {formatCount(size.images, 'image')} (
            {formatBytes(size.bytes)}).
          </p>
          {size.favorites > 0 ? (
            <p className="warn-text" data-testid="trash-favorites">
              {size.favorites === 1
                ? '1 of them is a favorite.'
                : `${formatCount(size.favorites, 'favorite')} are among them.`}{' '}
              Restore {size.favorites === 1 ? 'it' : 'them'} first to keep {size.favorites === 1 ? 'it' : 'them'}.
            </p>
          ) : null}
          <p className="muted">It cannot be undone. Files shared with jobs you keep stay on disk.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
