import type { JobCost } from '../../shared/contract.js';
import type { Clock } from '../base/clock.js';
import type { CostStore } from '../db/costs.js';
import { isPaidKind } from './default-prices.js';
import { estimateCost, modelOf, type PersonPrices, type PricedRequest } from './estimate.js';
import { localDay, localMonth } from './local-days.js';
import { formatUsd, toMicros, toUsd } from './money.js';

/** What admit needs of a job's request: its model and what the price depends on. */
export type AdmitRequest = PricedRequest & { model?: string | undefined };

export type Admission =
  | { ok: true; estimateUsd: number }
  | { ok: false; message: string; capUsd: number; spentUsd: number; estimateUsd: number };

/** A reported cost above this is not believed (a provider's answer is untrusted): the estimate is kept instead. */
const MAX_REPORTED_USD = 100_000;

export interface SpendGateDeps {
  costs: Pick<CostStore, 'spentBetween' | 'recordCost'>;
  clock: Clock;
  /** The person's prices per image (settings.spend.prices), read at each call. */
  prices(): PersonPrices;
  /** The provider instance's monthly cap in dollars, if it has one (settings.spend.monthlyCapUsd). */
  capOf(providerId: string): number | undefined;
  /** The provider's name as the person knows it, for the paused message. */
  nameOf(providerId: string): string;
}

/**
 * The spend gate: no paid job is sent when it could take its provider past the monthly cap.
 *
 * How the scheduler calls it, once per run of a job, on the instance it was placed on:
 * - `admit(jobId, instanceId, kind, request)` just before the provider is called (after placement, before
 *   `provider.generate`). `ok: false` means do not send it: leave the job queued and show `message` (the provider's
 *   queue is paused until the month turns or the cap is raised; call admit again on the next kick). `ok: true` holds
 *   the job's estimate against the cap until it is settled, so jobs admitted together cannot pass it together.
 * - `record(jobId, instanceId, kind, model, request, output)` when the provider returned (`output.costUsd` where the API
 *   reported one, else the estimate is written); put the answer in `JobResult.cost`. A job that failed after
 *   `onAccepted` may still have been billed: record it with `{}` to count the estimate.
 * - `release(jobId)` when the job ended without being billed (failed before acceptance, cancelled before sending,
 *   put back in the queue): its estimate stops counting.
 * Free kinds (builtin, a1111, comfyui) are always admitted and hold nothing.
 */
export interface SpendGate {
  admit(jobId: string, providerId: string, kind: string, request: AdmitRequest): Admission;
  record(
    jobId: string,
    providerId: string,
    kind: string,
    model: string | undefined,
    request: PricedRequest,
    output: { costUsd?: number | undefined },
  ): JobCost | undefined;
  release(jobId: string): void;
  /** Estimates held for this provider's running jobs, in dollars. */
  runningUsd(providerId: string): number;
  /** The message its queue shows while the cap holds it; null when nothing waits for the cap. */
  pausedByCap(providerId: string): string | null;
}

interface Hold {
  providerId: string;
  micros: number;
}

export function createSpendGate(deps: SpendGateDeps): SpendGate {
  const holds = new Map<string, Hold>();
  /** The last job each provider refused, by its estimate and month: the pause lasts while it would still be refused. */
  const refused = new Map<string, { micros: number; month: string }>();

  const heldFor = (providerId: string, except?: string): number => {
    let sum = 0;
    for (const [jobId, hold] of holds) if (hold.providerId === providerId && jobId !== except) sum += hold.micros;
    return sum;
  };
  const monthSpent = (providerId: string, now: number): number => {
    const month = localMonth(now);
    return deps.costs.spentBetween(providerId, month.fromDay, month.toDay);
  };
  const usableCap = (providerId: string): number | undefined => {
    const cap = deps.capOf(providerId);
    return typeof cap === 'number' && Number.isFinite(cap) && cap >= 0 ? cap : undefined;
  };
  const pauseMessage = (providerId: string, cap: number, spent: number, held: number, estimate: number, now: number) =>
    `Paused: ${deps.nameOf(providerId)} would pass its monthly cap of ${formatUsd(cap)} ` +
    `(${formatUsd(toUsd(spent))} spent${held > 0 ? `, ${formatUsd(toUsd(held))} running` : ''}, ` +
    `this job ~${formatUsd(toUsd(estimate))}). Raise the cap in Settings → Spend or wait until ` +
    `${localMonth(now).nextMonthLabel}.`;

  return {
    admit(jobId, providerId, kind, request) {
      if (!isPaidKind(kind)) return { ok: true, estimateUsd: 0 };
      const now = deps.clock.now();
      const estimate = toMicros(estimateCost(kind, request.model, request, deps.prices()).usd);
      const cap = usableCap(providerId);
      if (cap !== undefined) {
        const spent = monthSpent(providerId, now);
        // A job admitted again (a retry of the same run) replaces its own hold rather than adding to it.
        const held = heldFor(providerId, jobId);
        if (spent + held + estimate > toMicros(cap)) {
          holds.delete(jobId);
          refused.set(providerId, { micros: estimate, month: localMonth(now).month });
          return {
            ok: false,
            message: pauseMessage(providerId, cap, spent, held, estimate, now),
            capUsd: cap,
            spentUsd: toUsd(spent + held),
            estimateUsd: toUsd(estimate),
          };
        }
      }
      refused.delete(providerId);
      holds.set(jobId, { providerId, micros: estimate });
      return { ok: true, estimateUsd: toUsd(estimate) };
    },

    record(jobId, providerId, kind, model, request, output) {
      const reported = output.costUsd;
      const believed =
        typeof reported === 'number' && Number.isFinite(reported) && reported >= 0 && reported <= MAX_REPORTED_USD;
      if (!believed && !isPaidKind(kind)) {
        holds.delete(jobId);
        return undefined;
      }
      const usd = believed ? reported : estimateCost(kind, model, request, deps.prices()).usd;
      const now = deps.clock.now();
      deps.costs.recordCost({
        jobId,
        providerId,
        kind,
        model: modelOf(kind, model),
        usdMicros: toMicros(usd),
        source: believed ? 'reported' : 'estimated',
        at: now,
        day: localDay(now),
      });
      // Settled only once written: a write the disk refused leaves the hold counting against the cap.
      holds.delete(jobId);
      return { usd: toUsd(toMicros(usd)), source: believed ? 'reported' : 'estimated' };
    },

    release(jobId) {
      holds.delete(jobId);
    },

    runningUsd: (providerId) => toUsd(heldFor(providerId)),

    pausedByCap(providerId) {
      const refusal = refused.get(providerId);
      const cap = usableCap(providerId);
      if (refusal === undefined || cap === undefined) return null;
      const now = deps.clock.now();
      if (refusal.month !== localMonth(now).month) return null;
      const spent = monthSpent(providerId, now);
      const held = heldFor(providerId);
      if (spent + held + refusal.micros <= toMicros(cap)) return null;
      return pauseMessage(providerId, cap, spent, held, refusal.micros, now);
    },
  };
}
