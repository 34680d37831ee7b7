import type { JobStatus } from '../../../shared/contract';
import { formatStatus } from './format';

export function StatusBadge({ status, title }: { status: JobStatus; title?: string | undefined }) {
  if (status === 'succeeded') return null;
  return (
    <span className={`badge status-${status}`} title={title}>
      {formatStatus(status)}
    </span>
  );
}
