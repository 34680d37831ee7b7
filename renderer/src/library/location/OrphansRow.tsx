import { useState } from 'react';
import { formatBytes, formatCount } from '../../common/format';
import { useApi, useApp } from '../../store/context';
import { ConfirmDialog } from '../../common/ConfirmDialog';

/** Files the start-up check moved to orphans/ (no job lists them): kept until the person removes that many. */
export function OrphansRow({ files, bytes }: { files: number; bytes: number }) {
  const api = useApi();
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const loadStats = useApp((s) => s.loadStats);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setBusy(true);
    try {
      // The count shown is the count confirmed: if it changed meanwhile, the engine refuses and nothing goes.
      const result = await api.call('library.removeOrphans', { expectedCount: files });
      toast({
        kind: 'info',
        message: `Removed ${formatCount(result.removed, 'orphaned file')}, ${formatBytes(result.bytesFreed)} freed.`,
      });
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
      setAsking(false);
      void loadStats();
    }
  };

  return (
    <>
      <dt>Orphaned files</dt>
      <dd>
        {formatCount(files, 'file')} ({formatBytes(bytes)}) no job lists, kept in the{' '}
        <span className="mono">orphans</span> folder.{' '}
        <button type="button" className="link" onClick={() => setAsking(true)}>
          Remove for good…
        </button>
      </dd>
      {asking ? (
        <ConfirmDialog
          title={`Delete ${formatCount(files, 'orphaned file')}?`}
          confirmLabel={busy ? 'Removing…' : 'Delete for good'}
          danger
          busy={busy}
          onCancel={() => setAsking(false)}
          onConfirm={() => void remove()}
        >
          <p>
            This permanently deletes the {formatCount(files, 'file')} ({formatBytes(bytes)}) in the orphans folder. No
            job in your history uses {files === 1 ? 'it' : 'them'}.
          </p>
          <p className="muted">It cannot be undone. To keep any, move them out of the folder first.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
