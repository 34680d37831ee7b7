import type { EventName, JobStatus, ModelKind, ProviderKind, THEMES as ContractThemes } from '../../../shared/contract';

// Copies of the contract's few runtime constants the first render needs: importing them from shared/contract would
// build every zod schema before the grid can paint. A unit test holds them equal to the contract's own.

export const TERMINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled', 'interrupted'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export const EVENT_NAMES: readonly EventName[] = [
  'jobs.changed',
  'jobs.progress',
  'jobs.removed',
  'jobs.queue',
  'queue.control',
  'library.importProgress',
  'library.rereadProgress',
  'library.curated',
  'export.progress',
  'updates.status',
];

export const THEMES: typeof ContractThemes = ['system', 'dark', 'light'];

/** The most jobs one provider may run at once, and started per minute (shared/contract/settings.ts). */
export const MAX_PROVIDER_CONCURRENCY = 32;
export const MAX_PER_MINUTE = 600;

/** The most reference images one request may send (shared/contract/iterate.ts). */
export const MAX_REFERENCE_IMAGES = 14;

/** The provider kinds and `any:<kind>` targets (shared/contract/iterate.ts), for the composer's first render. */
export const PROVIDER_KINDS: readonly ProviderKind[] = [
  'builtin',
  'openai',
  'gemini',
  'bfl',
  'fal',
  'replicate',
  'stability',
  'a1111',
  'comfyui',
  'runpod',
];
export const ANY_PREFIX = 'any:';

export function kindOfTarget(target: string): ProviderKind | undefined {
  if (!target.startsWith(ANY_PREFIX)) return undefined;
  const kind = target.slice(ANY_PREFIX.length);
  return (PROVIDER_KINDS as readonly string[]).includes(kind) ? (kind as ProviderKind) : undefined;
}

/** Most images one OS drag-out carries (shared/contract/desktop.ts). */
export const MAX_DRAG_FILES = 500;

/** The model library's kinds (shared/contract/models.ts) and the most LoRAs on one request (shared/contract/loras.ts). */
export const MODEL_KINDS: readonly ModelKind[] = ['checkpoint', 'lora', 'embedding', 'vae'];
export const MAX_LORAS = 16;
