import { useState } from 'react';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { useApp } from '../store/context';
import { cancelQuestion } from './queue-text';

/** "Cancel all queued…": the count is confirmed, and a queue that changed meanwhile asks again with its new count. */
export function CancelQueued({ total }: { total: number }) {
  const cancelQueued = useApp((s) => s.cancelQueued);
  const toast = useApp((s) => s.toast);
  const [asking, setAsking] = useState<{ count: number; changed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async (count: number) => {
    setBusy(true);
    const answer = await cancelQueued(count);
    setBusy(false);
    if (answer !== null && 'actual' in answer && answer.actual > 0) {
      setAsking({ count: answer.actual, changed: true });
      return;
    }
    setAsking(null);
    if (answer !== null && 'cancelled' in answer) {
      toast({ kind: 'info', message: `Cancelled ${answer.cancelled} queued job${answer.cancelled === 1 ? '' : 's'}.` });
    }
  };

  return (
    <>
      <button
        type="button"
        className="btn small danger"
        aria-haspopup="dialog"
        onClick={() => setAsking({ count: total, changed: false })}
      >
        Cancel all queued…
      </button>
      {asking === null ? null : (
        <ConfirmDialog
          title={cancelQuestion(asking.count)}
          confirmLabel={`Yes, cancel ${asking.count}`}
          danger
          busy={busy}
          onConfirm={() => void confirm(asking.count)}
          onCancel={() => setAsking(null)}
        >
          {asking.changed ? <p>The queue changed meanwhile: nothing was cancelled yet.</p> : null}
          <p>Running jobs go on.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
