import type { PriceRow, ProviderSpend, SpendSummary } from '../../shared/contract.js';
import type { Clock } from '../base/clock.js';
import type { CostReads } from '../db/costs.js';
import { isPaidKind } from './default-prices.js';
import { modelOf, priceKey, priceLine, type PersonPrices } from './estimate.js';
import { localMonth } from './local-days.js';
import type { SpendGate } from './spend-gate.js';
import { toUsd } from './money.js';

export interface SummaryDeps {
  costs: Pick<CostReads, 'dailyTotals' | 'anyEstimated' | 'modelsUsed'>;
  gate: Pick<SpendGate, 'runningUsd' | 'pausedByCap'>;
  clock: Clock;
  /** Every provider instance: whether it is on and set up (its key stored), and the model it is set to run by default, if any. */
  instances(): Array<{
    id: string;
    kind: string;
    name: string;
    enabled?: boolean | undefined;
    model?: string | undefined;
  }>;
  prices(): PersonPrices;
  capOf(providerId: string): number | undefined;
}

/** Settings → Spend: each paid provider's day and month, its cap and pause, and the prices a person may edit. */
export function spendSummary(deps: SummaryDeps): SpendSummary {
  const now = deps.clock.now();
  const month = localMonth(now);
  const prices = deps.prices();
  const paid = deps.instances().filter((i) => isPaidKind(i.kind));
  const providers: ProviderSpend[] = paid.flatMap((instance) => {
    const days = deps.costs.dailyTotals(instance.id, month.fromDay, month.toDay);
    const today = days.find((d) => d.day === month.today);
    const cap = deps.capOf(instance.id);
    const monthMicros = days.reduce((sum, d) => sum + d.usdMicros, 0);
    const runningUsd = deps.gate.runningUsd(instance.id);
    // A provider that is off or not set up, has no cap and spent nothing this month has nothing to say here.
    if (instance.enabled === false && cap === undefined && monthMicros === 0 && runningUsd === 0) return [];
    const spend: ProviderSpend = {
      id: instance.id,
      kind: instance.kind,
      name: instance.name,
      todayUsd: toUsd(today?.usdMicros ?? 0),
      monthUsd: toUsd(monthMicros),
      runningUsd,
      capUsd: cap ?? null,
      pausedByCap: deps.gate.pausedByCap(instance.id),
      estimated: deps.costs.anyEstimated(instance.id, month.fromDay, month.toDay),
      days: days.map((d) => ({ day: d.day, usd: toUsd(d.usdMicros), jobs: d.jobs })),
    };
    return [spend];
  });

  // Rows: models used, each paid instance's own model (or its kind's default), and the person's own lines.
  const rows = new Map<string, { kind: string; model: string }>();
  const add = (kind: string, model: string): void => {
    if (isPaidKind(kind) && model !== '') rows.set(priceKey(kind, model), { kind, model });
  };
  for (const used of deps.costs.modelsUsed()) add(used.kind, used.model);
  for (const instance of paid) {
    if (providers.some((p) => p.id === instance.id)) add(instance.kind, modelOf(instance.kind, instance.model));
  }
  for (const key of Object.keys(prices)) {
    const slash = key.indexOf('/');
    if (slash > 0) add(key.slice(0, slash), key.slice(slash + 1));
  }
  const priceRows: PriceRow[] = [...rows.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, { kind, model }]) => ({ key, kind, model, ...priceLine(kind, model, prices) }));

  return { month: month.month, today: month.today, capsResetOn: month.nextMonthLabel, providers, prices: priceRows };
}
