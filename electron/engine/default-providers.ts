import { A1111_BASE_URL, createA1111Provider } from '../providers/a1111/index.js';
import { createBuiltinProvider } from '../providers/builtin/index.js';
import { COMFYUI_BASE_URL, createComfyUIProvider } from '../providers/comfyui/index.js';
import { createBflProvider } from '../providers/bfl/index.js';
import { createFalProvider } from '../providers/fal/index.js';
import { createReplicateProvider } from '../providers/replicate/index.js';
import { createRunPodProvider } from '../providers/runpod/index.js';
import { createStabilityProvider } from '../providers/stability/index.js';
import { createGeminiProvider } from '../providers/gemini/index.js';
import { createOpenAIProvider } from '../providers/openai/index.js';
import type { ProviderEntry } from './provider-registry.js';

const MINUTE = 60_000;

/** Every provider Atelier ships, with the settings a new library starts with; each kind can make more instances. */
export function defaultProviders(): ProviderEntry[] {
  const builtin = createBuiltinProvider();
  return [
    // On from the first minute: offline, no setup.
    {
      provider: builtin,
      defaults: { enabled: true, timeoutMs: 5 * MINUTE, concurrency: 2 },
      close: () => builtin.close(),
      alwaysReady: true,
      create: () => {
        const another = createBuiltinProvider();
        return { provider: another, close: () => another.close() };
      },
    },
    // On, but "not set up" until a key is added, so the picker can say what is missing.
    {
      provider: createOpenAIProvider(),
      defaults: { enabled: true, timeoutMs: 5 * MINUTE, concurrency: 2 },
      create: () => ({ provider: createOpenAIProvider() }),
    },
    {
      provider: createGeminiProvider(),
      defaults: { enabled: true, timeoutMs: 5 * MINUTE, concurrency: 2 },
      create: () => ({ provider: createGeminiProvider() }),
    },
    // BFL takes 24 tasks in flight per key (docs/hosted-protocols.md §1.2); two keep a person's queue moving.
    {
      provider: createBflProvider(),
      defaults: { enabled: true, timeoutMs: 10 * MINUTE, concurrency: 2 },
      maxConcurrency: 24,
      create: () => ({ provider: createBflProvider() }),
    },
    // fal queues what passes an account's own limit (2 to 40 running): four polled at once keep it busy.
    {
      provider: createFalProvider(),
      defaults: { enabled: true, timeoutMs: 10 * MINUTE, concurrency: 4 },
      create: () => ({ provider: createFalProvider() }),
    },
    // Replicate limits creates per minute (600), not predictions at once.
    {
      provider: createReplicateProvider(),
      defaults: { enabled: true, timeoutMs: 10 * MINUTE, concurrency: 2 },
      create: () => ({ provider: createReplicateProvider() }),
    },
    // Stability allows 150 requests in 10 s; its creative upscale is polled for tens of seconds.
    {
      provider: createStabilityProvider(),
      defaults: { enabled: true, timeoutMs: 10 * MINUTE, concurrency: 2 },
      create: () => ({ provider: createStabilityProvider() }),
    },
    // Local servers are off until the person turns them on: most machines don't run one.
    {
      provider: createA1111Provider(),
      defaults: { enabled: false, baseUrl: A1111_BASE_URL, timeoutMs: 10 * MINUTE, concurrency: 1 },
      create: () => ({ provider: createA1111Provider() }),
    },
    {
      provider: createComfyUIProvider(),
      defaults: { enabled: false, baseUrl: COMFYUI_BASE_URL, timeoutMs: 10 * MINUTE, concurrency: 1 },
      create: () => ({ provider: createComfyUIProvider() }),
    },
    // A rented GPU: a RunPod serverless endpoint running worker-comfyui, set up with its endpoint URL and a key.
    {
      provider: createRunPodProvider(),
      defaults: { enabled: true, timeoutMs: 15 * MINUTE, concurrency: 2 },
      create: () => ({ provider: createRunPodProvider() }),
    },
  ];
}
