import { useEffect, useState } from 'react';
import type { TrashSummary } from '../../../shared/contract';
import { formatBytes, formatCount } from '../common/format';
import { useApi, useApp } from '../store/context';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { canEmptyTrash, emptiedWhat, emptyTrashWhat, trashContents } from './trash-rules';

/** The trash's own header: what is in it (jobs and single images, as the view shows them), and Empty trash behind its confirmation. */
export function TrashView() {
  const api = useApi();
  const days = useApp((s) => s.settings?.retention.trashAutoEmptyDays);
  const emptyTrash = useApp((s) => s.emptyTrash);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  // What the trash holds changes with every trash, restore and delete: the cards, the totals and the counts follow them.
  const jobs = useApp((s) => s.jobs);
  const stats = useApp((s) => s.stats);
  const counts = useApp((s) => s.counts);
  const [summary, setSummary] = useState<TrashSummary | null>(null);
  const [asking, setAsking] = useState<TrashSummary | 'measuring' | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.call('jobs.trashSummary', {}).then(
      (s) => live && setSummary(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, jobs, stats, counts]);

  const ask = async () => {
    setAsking('measuring');
    try {
      const fresh = await api.call('jobs.trashSummary', {});
      setSummary(fresh);
      setAsking(canEmptyTrash(fresh) ? fresh : null);
    } catch (error) {
      setAsking(null);
      reportError(error);
    }
  };

  const confirm = async (asked: TrashSummary) => {
    setBusy(true);
    const result = await emptyTrash();
    setBusy(false);
    setAsking(null);
    if (result !== null) {
      toast({
        kind: 'info',
        message: `Trash emptied: ${emptiedWhat(asked)}, ${formatBytes(result.bytesFreed)} freed.`,
      });
    }
  };

  return (
    <div className="trash-header">
      <p data-testid="trash-banner">
        {summary === null ? 'Counting the trash…' : trashContents(summary)}
        {days !== undefined && days > 0
          ? ` Emptied automatically after ${days} days, except favorites: those stay until you empty the trash yourself.`
          : ''}
      </p>
      <button
        type="button"
        className="btn danger"
        disabled={summary === null || !canEmptyTrash(summary) || asking === 'measuring'}
        onClick={() => void ask()}
      >
        {asking === 'measuring' ? 'Counting…' : 'Empty trash…'}
      </button>
      {asking !== null && asking !== 'measuring' ? (
        <ConfirmDialog
          title="Empty the trash?"
          confirmLabel={busy ? 'Emptying…' : 'Delete for good'}
          danger
          busy={busy}
          onCancel={() => setAsking(null)}
          onConfirm={() => void confirm(asking)}
        >
          <p>
            This permanently deletes {emptyTrashWhat(asking)} ({formatBytes(asking.bytes)}).
          </p>
          {asking.favorites > 0 ? (
            <p className="warn-text" data-testid="trash-favorites">
              {asking.favorites === 1
                ? '1 of them is a favorite.'
                : `${formatCount(asking.favorites, 'favorite')} are among them.`}{' '}
              Restore {asking.favorites === 1 ? 'it' : 'them'} first to keep {asking.favorites === 1 ? 'it' : 'them'}.
            </p>
          ) : null}
          <p className="muted">
            It cannot be undone. Imported originals stay in their folders; files shared with images you keep stay on
            disk.
          </p>
        </ConfirmDialog>
      ) : null}
      <PurgeQuestion />
    </div>
  );
}

/** Delete permanently…, asked from a card, its menu, the Delete key or the viewer: counted, never a silent restore. */
function PurgeQuestion() {
  const ask = useApp((s) => s.purgeAsk);
  const cancel = useApp((s) => s.cancelPurge);
  const confirm = useApp((s) => s.confirmPurge);
  const [busy, setBusy] = useState(false);
  if (ask === null) return null;
  return (
    <ConfirmDialog
      title="Delete permanently?"
      confirmLabel={busy ? 'Deleting…' : 'Delete permanently'}
      danger
      busy={busy}
      onCancel={cancel}
      onConfirm={() => {
        setBusy(true);
        void confirm().finally(() => setBusy(false));
      }}
    >
      <p data-testid="purge-question">{ask.question}</p>
      <p className="muted">Imported originals stay in their folders: only Atelier&apos;s own copies are deleted.</p>
    </ConfirmDialog>
  );
}
