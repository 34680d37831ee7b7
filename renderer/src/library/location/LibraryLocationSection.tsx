import { useCallback, useEffect, useState } from 'react';
import type { LibraryLocation, MoveStatus } from '../../../../shared/contract';
import { formatBytes, formatCount } from '../../common/format';
import { moveFraction, moveProgressText, moveRunning } from './library-move';
import { useApi, useApp } from '../../store/context';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import './library-location.css';

/** How often a running move is asked how far it is (it closes the library, so there are no engine events). */
const POLL_MS = 250;

/** Settings → Library location: where the library lives, Move library…, its progress, and the old copy's deletion. */
export function LibraryLocationSection() {
  const api = useApi();
  const reportError = useApp((s) => s.reportError);
  const toast = useApp((s) => s.toast);
  const loadSettings = useApp((s) => s.loadSettings);
  const loadStats = useApp((s) => s.loadStats);
  const [location, setLocation] = useState<LibraryLocation | null>(null);
  const [move, setMove] = useState<MoveStatus | null>(null);
  const [target, setTarget] = useState('');
  const [typing, setTyping] = useState(false);
  const [asking, setAsking] = useState<'move' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(async () => {
    const next = await api.call('library.location', {});
    setLocation(next);
    setMove(next.move);
    return next;
  }, [api]);
  // A host without a library host (a bare engine in tests) answers no location: the section is simply not shown.
  useEffect(() => {
    api.call('library.location', {}).then(
      (next) => {
        setLocation(next);
        setMove(next.move);
      },
      () => setLocation(null),
    );
  }, [api]);

  const running = moveRunning(move);
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => {
      api.call('library.move.status', {}).then(({ move: next }) => {
        setMove(next);
        if (!moveRunning(next)) {
          void refresh();
          void loadSettings();
          void loadStats();
        }
      }, reportError);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [api, running, refresh, loadSettings, loadStats, reportError]);

  const choose = async () => {
    if (api.host !== 'desktop') {
      setTyping(true);
      return;
    }
    try {
      const { path } = await api.call('desktop.pickFolder', {});
      if (path === null) return;
      setTarget(path);
      setAsking('move');
    } catch (error) {
      reportError(error);
    }
  };
  const start = async () => {
    setAsking(null);
    try {
      setMove(await api.call('library.move.start', { target: target.trim() }));
      setTyping(false);
    } catch (error) {
      reportError(error);
    }
  };
  const deleteOld = async () => {
    const old = location?.oldCopy;
    if (old == null) return;
    setBusy(true);
    try {
      // The counts shown are the counts confirmed: the host deletes nothing if they no longer match.
      const result = await api.call('library.deleteOldCopy', { files: old.files, bytes: old.bytes });
      const kept = result.keptFiles > 0 ? ` ${formatCount(result.keptFiles, 'file')} had changed and stayed.` : '';
      toast({
        kind: 'info',
        message: `Deleted the old copy: ${formatCount(result.deletedFiles, 'file')}, ${formatBytes(result.deletedBytes)}.${kept}`,
      });
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
      setAsking(null);
      void refresh();
    }
  };

  if (location === null) return null;
  const old = location.oldCopy;
  return (
    <section aria-labelledby="location-title" className="library-location">
      <h3 id="location-title">Library location</h3>
      <p>
        <span className="muted">Your library is in </span>
        <span className="mono" data-testid="library-path">
          {location.dataDir}
        </span>
      </p>
      {running && move !== null ? (
        <div className="progress" role="status" aria-live="polite" data-testid="move-progress">
          <div
            className="bar"
            role="progressbar"
            aria-label="Moving the library"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(moveFraction(move) * 100)}
          >
            <div className="fill" style={{ width: `${Math.round(moveFraction(move) * 100)}%` }} />
          </div>
          <p className="progress-text">
            <span>{moveProgressText(move)}</span>
          </p>
          <p className="muted small">The library is closed while it is copied and checked; it opens again by itself.</p>
          {move.state === 'switching' ? null : (
            <button
              type="button"
              className="btn"
              onClick={() => void api.call('library.move.cancel', {}).catch(reportError)}
            >
              Cancel move
            </button>
          )}
        </div>
      ) : (
        <>
          {move?.state === 'done' ? (
            <p role="status" data-testid="move-result">
              Moved: every file was copied and verified, and the library now opens from{' '}
              <span className="mono">{move.to}</span>.
              {move.nextStart === undefined ? null : (
                <>
                  {' '}
                  Next time, start the host with <span className="mono">--data-dir {move.nextStart}</span>.
                </>
              )}
            </p>
          ) : null}
          {move?.error === undefined ? null : (
            <p role="alert" className="warn-text" data-testid="move-result">
              {move.error.message}
            </p>
          )}
          {typing ? (
            <form
              className="location-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (target.trim() !== '') setAsking('move');
              }}
            >
              <label>
                <span>New folder (empty or new), full path</span>
                <input
                  type="text"
                  className="mono"
                  value={target}
                  onChange={(e) => setTarget(e.target.value)}
                  placeholder="/Volumes/Drive/Atelier"
                  autoFocus
                />
              </label>
              <button type="submit" className="btn primary" disabled={target.trim() === ''}>
                Move here…
              </button>
              <button type="button" className="btn" onClick={() => setTyping(false)}>
                Cancel
              </button>
            </form>
          ) : (
            <button type="button" className="btn" onClick={() => void choose()}>
              Move library…
            </button>
          )}
          {old === null ? null : (
            <p data-testid="old-copy">
              The old copy is still in <span className="mono">{old.path}</span> ({formatCount(old.files, 'file')},{' '}
              {formatBytes(old.bytes)}).{' '}
              <button type="button" className="link" onClick={() => setAsking('delete')}>
                Delete the old copy…
              </button>
            </p>
          )}
        </>
      )}
      {asking === 'move' ? (
        <ConfirmDialog
          title="Move the library?"
          confirmLabel="Move library"
          onCancel={() => setAsking(null)}
          onConfirm={() => void start()}
        >
          <p>
            Atelier copies your library to <span className="mono">{target.trim()}</span>, checks every file against the
            original, and then uses the new folder. The library is closed while it copies; running jobs get a moment to
            finish.
          </p>
          <p className="muted">
            The old copy stays where it is until you choose to delete it. Imported originals stay where they are.
          </p>
        </ConfirmDialog>
      ) : null}
      {asking === 'delete' && old !== null ? (
        <ConfirmDialog
          title={`Delete ${formatCount(old.files, 'file')} of the old copy?`}
          confirmLabel={busy ? 'Deleting…' : 'Delete the old copy'}
          danger
          busy={busy}
          onCancel={() => setAsking(null)}
          onConfirm={() => void deleteOld()}
        >
          <p data-testid="delete-counts">
            This permanently deletes the {formatCount(old.files, 'file')} ({formatBytes(old.bytes)}) in{' '}
            <span className="mono">{old.path}</span> that were copied and verified. The library in{' '}
            <span className="mono">{location.dataDir}</span> keeps every one of them.
          </p>
          <p className="muted">Anything else in that folder is left alone. It cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
