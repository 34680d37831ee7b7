import { randomInt } from 'node:crypto';
import type { ProviderTestResult } from '../../../shared/contract.js';
import { runJob } from '../skeleton/run-job.js';
import type { Provider } from '../types.js';
import { BUILTIN_CAPABILITIES, BUILTIN_MODEL, builtinOperation, validateBuiltinRequest } from './capabilities.js';
import { renderHooks } from './render-job.js';
import { upscaleHooks } from './upscale.js';
import { cancelledError, RenderPool, type RenderPoolOptions } from './worker-pool.js';

export { previewSizes } from './render-job.js';

export interface BuiltinProvider extends Provider {
  /** Terminates the render workers; the engine calls this on quit. Pending renders reject with `cancelled`. */
  close(): Promise<void>;
}

export type BuiltinProviderOptions = RenderPoolOptions & {
  /** Seed for requests without one (tests); defaults to a random 32-bit seed, reported in the output. */
  randomSeed?: () => number;
};

/** The offline generator: its job's hooks are in render-job.ts (upscale.ts for upscales), the pixels in workers. */
export function createBuiltinProvider(options: BuiltinProviderOptions = {}): BuiltinProvider {
  const pool = new RenderPool(options);
  const randomSeed = options.randomSeed ?? (() => randomInt(0, 2 ** 32));

  return {
    id: 'builtin',
    name: 'Built-in (offline)',
    capabilities: () => BUILTIN_CAPABILITIES,
    knownModels: () => [BUILTIN_MODEL],
    isConfigured: () => true,
    validate: (request) => validateBuiltinRequest(request),
    async generate(request, _config, context) {
      validateBuiltinRequest(request);
      if (context.signal.aborted) throw cancelledError();
      const op = builtinOperation(request);
      if (op === 'upscale') return runJob(upscaleHooks(request, context));
      return runJob(renderHooks(request, context, pool, randomSeed, op));
    },
    async test(): Promise<ProviderTestResult> {
      return {
        ok: true,
        reachable: true,
        models: [BUILTIN_MODEL],
        latencyMs: 0,
        message: 'The built-in generator is ready: it works offline.',
      };
    },
    close: () => pool.close(),
  };
}
