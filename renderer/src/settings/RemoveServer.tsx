import { useState } from 'react';
import type { ProviderInfo } from '../../../shared/contract';
import { KIND_LABEL } from '../../../shared/mapping/settings';
import { formatCount } from '../common/format';
import { useApi, useApp } from '../store/context';

/** Remove, on the card of a server the person added, behind a one-line question; its files and images stay. */
export function RemoveServer({ provider }: { provider: ProviderInfo }) {
  const api = useApi();
  const reload = useApp((s) => s.loadSettings);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const [asking, setAsking] = useState(false);

  const remove = async () => {
    setAsking(false);
    try {
      const { movedJobs } = await api.call('providers.remove', { id: provider.id });
      const moved =
        movedJobs === 0
          ? ''
          : ` ${formatCount(movedJobs, 'queued job')} moved to another ${KIND_LABEL[provider.kind]} server.`;
      toast({ kind: 'info', message: `Removed ${provider.name}.${moved}` });
      await reload();
    } catch (error) {
      reportError(error);
    }
  };

  return asking ? (
    <span className="preset-confirm">
      Remove this server? Its files and images stay.
      <button type="button" className="btn small danger" onClick={() => void remove()}>
        Remove
      </button>
      <button type="button" className="btn small" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  ) : (
    <button type="button" className="btn small" aria-label={`Remove ${provider.name}`} onClick={() => setAsking(true)}>
      Remove
    </button>
  );
}
