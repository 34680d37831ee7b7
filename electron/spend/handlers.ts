import type { Handlers } from '../../shared/contract.js';
import { spendSummary, type SummaryDeps } from './summary.js';

/** The spend channel (shared/contract/spend.ts); caps and prices are saved through settings.update. */
export function createSpendHandlers(deps: SummaryDeps): Pick<Handlers, 'spend.summary'> {
  return { 'spend.summary': async () => spendSummary(deps) };
}
