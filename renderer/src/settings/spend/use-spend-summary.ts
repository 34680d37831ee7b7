import { useCallback, useEffect, useState } from 'react';
import type { SpendSummary } from '../../../../shared/contract';
import { useApi, useApp } from '../../store/context';

/** Spend as the engine last said: asked when the section opens, and again after each save. */
export function useSpendSummary(): { summary: SpendSummary | null; reload: () => Promise<void> } {
  const api = useApi();
  const reportError = useApp((s) => s.reportError);
  const [summary, setSummary] = useState<SpendSummary | null>(null);
  useEffect(() => {
    let live = true;
    api.call('spend.summary', {}).then(
      (first) => live && setSummary(first),
      (error: unknown) => live && reportError(error),
    );
    return () => {
      live = false;
    };
  }, [api, reportError]);
  const reload = useCallback(async () => {
    try {
      setSummary(await api.call('spend.summary', {}));
    } catch (error) {
      reportError(error);
    }
  }, [api, reportError]);
  return { summary, reload };
}
