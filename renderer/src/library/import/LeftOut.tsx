import { formatNumber } from '../../common/format';
import type { ImportRow } from './imports-model';

/** "Show 2 skipped, 1 failed": the files an import left out, skipped (no image in them) apart from failed. */
export function leftOutLabel(skipped: number, failed: number): string {
  const parts = [
    skipped > 0 ? `${formatNumber(skipped)} skipped` : null,
    failed > 0 ? `${formatNumber(failed)} failed` : null,
  ].filter((p) => p !== null);
  return `Show ${parts.join(', ')}`;
}

function Group({
  row,
  status,
  title,
  total,
}: {
  row: ImportRow;
  status: 'skipped' | 'failed';
  title: string;
  total: number;
}) {
  if (total === 0) return null;
  const listed = (row.problems ?? []).filter((p) => p.status === status);
  return (
    <div className={`import-left-out ${status}`}>
      <p className="import-left-out-title">{title}</p>
      <ul aria-label={status === 'skipped' ? 'Files skipped' : 'Files that failed'}>
        {listed.map((p) => (
          <li key={p.path}>
            <span className="mono">{p.path}</span> <span className="reason">— {p.reason}</span>
          </li>
        ))}
        {row.problems !== undefined && listed.length < total ? (
          <li className="muted small">
            The newest {formatNumber(listed.length)} of {formatNumber(total)} are listed.
          </li>
        ) : null}
      </ul>
    </div>
  );
}

/**
 * What an import did not bring in: skipped files (empty, not an image: nothing went wrong) in plain text, and
 * failures (an image that could not be read) in the warning colour.
 */
export function LeftOut({ row }: { row: ImportRow }) {
  return (
    <div className="import-problems">
      <Group row={row} status="failed" title="Failed: images that could not be read" total={row.failed} />
      <Group row={row} status="skipped" title="Skipped: no image in these files" total={row.skipped} />
    </div>
  );
}
