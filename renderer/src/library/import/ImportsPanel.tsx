import { memo, useState } from 'react';
import { formatEta, formatNumber } from '../../common/format';
import {
  describeImport,
  formatRate,
  importFraction,
  importName,
  isFinished,
  showAction,
  visibleImportIds,
} from './imports-model';
import { LeftOut, leftOutLabel } from './LeftOut';
import { useApp, useAppShallow } from '../../store/context';

function Count({ n, label, warn }: { n: number; label: string; warn?: boolean }) {
  return (
    <span className={warn === true && n > 0 ? 'import-count warn-text' : 'import-count'}>
      <strong>{formatNumber(n)}</strong> {label}
    </span>
  );
}

/** One import: what it found and did so far, how fast, and its controls; an event re-renders only this row. */
const ImportItem = memo(function ImportItem({ id }: { id: string }) {
  const row = useApp((s) => s.imports.byId[id]);
  const actions = useAppShallow((s) => ({
    control: s.controlImport,
    dismiss: s.dismissImport,
    load: s.loadImports,
    show: s.showImported,
    setSearch: s.setSearch,
  }));
  const search = useApp((s) => s.filters.search);
  const [showProblems, setShowProblems] = useState(false);
  if (row === undefined) return null;
  const first = row.paths?.[0];
  const more = (row.paths?.length ?? 1) - 1;
  const fraction = importFraction(row);
  const rate = row.status === 'running' ? formatRate(row.ratePerSecond) : null;
  const eta = row.status === 'running' && !row.scanning ? formatEta(row.etaMs) : null;
  const problemCount = row.skipped + row.failed;
  const name = importName(row);
  const action = showAction(row, search);
  const finished = isFinished(row.status);

  return (
    <li className={`import-item status-${row.status}`} aria-label={`Import of ${name}`}>
      <div className="import-head">
        <p className="import-title" title={row.paths?.join('\n')}>
          {name}
          {more > 0 ? <span className="muted"> and {more} more</span> : null}
          {first === undefined || more > 0 ? null : <span className="import-path mono muted">{first}</span>}
          {row.mode === 'copy' ? <span className="badge">copy</span> : null}
          {row.watch === true ? <span className="badge">watching</span> : null}
        </p>
        <span className="import-state" role="status">
          {describeImport(row)}
        </span>
      </div>
      <div
        className={fraction === undefined && row.status === 'running' ? 'bar indeterminate' : 'bar'}
        role="progressbar"
        aria-label={`Import progress: ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        {...(fraction === undefined ? {} : { 'aria-valuenow': Math.round(fraction * 100) })}
      >
        <div className="fill" style={{ width: `${Math.round((finished ? 1 : (fraction ?? 0)) * 100)}%` }} />
      </div>
      <p className="import-counts">
        <Count n={row.found} label="found" />
        <Count n={row.imported} label="imported" />
        <Count n={row.duplicates} label={row.duplicates === 1 ? 'duplicate' : 'duplicates'} />
        <Count n={row.skipped} label="skipped" />
        <Count n={row.failed} label="failed" warn />
        {rate === null ? null : <span className="muted">{rate}</span>}
        {eta === null ? null : <span className="muted">{eta}</span>}
      </p>
      <div className="import-actions">
        {row.status === 'running' ? (
          <button type="button" className="btn small" onClick={() => void actions.control(id, 'pause')}>
            Pause
          </button>
        ) : null}
        {row.status === 'paused' ? (
          <button type="button" className="btn small" onClick={() => void actions.control(id, 'resume')}>
            Resume
          </button>
        ) : null}
        {finished ? null : (
          <button type="button" className="btn small" onClick={() => void actions.control(id, 'cancel')}>
            Cancel
          </button>
        )}
        {action === null ? null : (
          <button
            type="button"
            className={action.narrows ? 'btn small primary' : 'btn small'}
            onClick={() => (action.narrows ? actions.show(id) : void actions.setSearch(''))}
          >
            {action.label}
          </button>
        )}
        {problemCount > 0 ? (
          <button
            type="button"
            className="link"
            aria-expanded={showProblems}
            onClick={() => {
              if (!showProblems) void actions.load();
              setShowProblems(!showProblems);
            }}
          >
            {showProblems ? 'Hide the list' : leftOutLabel(row.skipped, row.failed)}
          </button>
        ) : null}
        {finished ? (
          <button
            type="button"
            className="link dismiss"
            onClick={() => actions.dismiss(id)}
            aria-label={`Dismiss the import of ${name}`}
          >
            Dismiss
          </button>
        ) : null}
      </div>
      {showProblems ? <LeftOut row={row} /> : null}
    </li>
  );
});

/** The background re-read of imported files' settings, while it has files to read. */
function RereadItem() {
  const reread = useApp((s) => s.reread);
  if (reread === null || reread.state === 'idle') return null;
  const total = reread.done + reread.failed + reread.left;
  const fraction = total === 0 ? 0 : (reread.done + reread.failed) / total;
  return (
    <li className={`import-item status-${reread.state}`} aria-label="Re-reading settings">
      <div className="import-head">
        <p className="import-title">Re-reading settings</p>
        <span className="import-state" role="status">
          {reread.state === 'paused'
            ? 'Waiting while an import reads files'
            : `${formatNumber(reread.left)} ${reread.left === 1 ? 'file' : 'files'} to go`}
        </span>
      </div>
      <div
        className="bar"
        role="progressbar"
        aria-label="Re-read progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(fraction * 100)}
      >
        <div className="fill" style={{ width: `${Math.round(fraction * 100)}%` }} />
      </div>
      <p className="import-counts">
        <Count n={reread.done} label="re-read" />
        <Count n={reread.failed} label="could not be read" warn />
      </p>
    </li>
  );
}

/** Running and recent imports, above the grid: the grid fills with their images meanwhile. */
export function ImportsPanel() {
  const ids = useAppShallow((s) => visibleImportIds(s.imports, s.dismissedImports, s.importsOpenedAt));
  const rereading = useApp((s) => s.reread !== null && s.reread.state !== 'idle');
  if (ids.length === 0 && !rereading) return null;
  return (
    <section className="imports" aria-label="Imports">
      <ul>
        {ids.map((id) => (
          <ImportItem key={id} id={id} />
        ))}
        <RereadItem />
      </ul>
    </section>
  );
}
