import { createOpenAIProvider } from '../providers/openai/index.js';
import type { ProviderEntry } from './provider-registry.js';

const MINUTE = 60_000;

/** Every provider Atelier ships, with the settings a new library starts with. */
export function defaultProviders(): ProviderEntry[] {
  return [
    // Off until a key is added: enabling it without one would only fail jobs.
    { provider: createOpenAIProvider(), defaults: { enabled: true, timeoutMs: 5 * MINUTE, concurrency: 2 } },
  ];
}
