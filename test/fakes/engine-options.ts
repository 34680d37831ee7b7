import type { EngineTestSeams } from '../../electron/engine/create-engine.js';
import type { EngineOptions } from '../../electron/engine/types.js';

/** What a test harness takes: some production options and some test seams, in one object for brevity. */
export type MixedEngineOptions = Partial<EngineOptions> & EngineTestSeams;

// A Record, so a seam added to EngineTestSeams and not here fails the type check.
const SEAM_KEYS: Record<keyof EngineTestSeams, true> = {
  providers: true,
  retry: true,
  maxResponseBytes: true,
  orphanGraceMs: true,
  housekeepingDelayMs: true,
  hardTimeoutGraceMs: true,
  maintenanceIntervalMs: true,
  wrapDatabase: true,
  mediaFs: true,
  watchSettleMs: true,
  probeBackoff: true,
  wrapImportRead: true,
  spendGate: true,
  engineCandidates: true,
};

/** Splits a harness's options into createEngine's two arguments: production options, then test seams. */
export function splitEngineOptions(mixed: MixedEngineOptions): {
  options: Partial<EngineOptions>;
  seams: EngineTestSeams;
} {
  const options: Record<string, unknown> = {};
  const seams: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(mixed)) (key in SEAM_KEYS ? seams : options)[key] = value;
  return { options: options as Partial<EngineOptions>, seams: seams as EngineTestSeams };
}
