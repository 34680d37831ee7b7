import type { GenerateRequest } from '../../shared/contract.js';
import type { Provider, ProviderConfig, WorkInputs } from '../providers/types.js';

/** One server the scheduler may place work on. */
export interface PlaceableInstance {
  id: string;
  kind: string;
}

/** The provider registry as the scheduler uses it; electron/engine/provider-registry.ts implements it. */
export interface ProviderPool {
  /** The provider, its config, and a check that it is enabled and configured (`any:<kind>` picks an instance). */
  ready(target: string, model?: string): Promise<{ provider: Provider; config: ProviderConfig }>;
  instances(): PlaceableInstance[];
  kindOf(id: string): string | undefined;
  /** Without the keyring (asked on every pass): on, and everything it needs is stored. */
  placeable(id: string): boolean;
}

/** A server's model list as last fetched; electron/engine/model-cache.ts implements it. */
export interface ModelLookup {
  get(providerId: string): { models: string[] } | undefined;
}

/** Reads the image (and mask) a job works from; electron/engine/job-inputs.ts implements it. */
export interface InputReader {
  read(request: GenerateRequest): Promise<WorkInputs | undefined>;
}
