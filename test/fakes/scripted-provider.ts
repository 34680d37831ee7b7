/**
 * An in-process provider whose behaviour each test scripts: how long it runs, what progress and previews it
 * reports, and how each attempt ends. It exercises the worker without any network.
 */
import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';
import { offsetSeed, seedToBigInt } from '../../shared/seed.js';
import {
  textOnlyOperations,
  type GenerateRequest,
  type OperationCapabilities,
  type ProviderCapabilities,
} from '../../shared/contract.js';
import type { Provider, ProviderOutput, WorkInputs } from '../../electron/providers/types.js';
import type { ProviderEntry } from '../../electron/engine/provider-registry.js';

export type AttemptScript =
  | { kind: 'succeed'; delayMs?: number; progressSteps?: number; partials?: number }
  | { kind: 'fail'; error: AppError; afterAccept?: boolean; delayMs?: number }
  | { kind: 'hang' };

export interface ScriptedProvider extends Provider {
  script: AttemptScript[];
  calls: GenerateRequest[];
  /** Attempts that saw their signal abort. */
  aborted: number;
  /** What each call was given to work from (undefined: text only). */
  inputs: Array<WorkInputs | undefined>;
  /** Which image operations it claims; text only unless a test says otherwise. */
  operations: OperationCapabilities;
}

/** Every image operation supported (a test's provider that takes images). */
export const ALL_OPERATIONS: OperationCapabilities = {
  img2img: { supported: true },
  inpaint: { supported: true },
  upscale: { supported: true },
};

const capabilities: ProviderCapabilities = {
  sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[512, 512]] },
  maxCount: 4,
  steps: { min: 1, max: 50, default: 10 },
  seed: true,
  negativePrompt: true,
  maxPartialImages: 3,
  outputFormats: ['png'],
  operations: textOnlyOperations('This provider works from text only here.'),
};

export async function solidPng(width: number, height: number, seed = 0): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({
      create: { width, height, channels: 3, background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: 128 } },
    })
      .png()
      .toBuffer(),
  );
}

const wait = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new AppError('cancelled', 'aborted'));
      },
      { once: true },
    );
  });

export function createScriptedProvider(
  id = 'scripted',
  script: AttemptScript[] = [{ kind: 'succeed' }],
): ScriptedProvider {
  const provider: ScriptedProvider = {
    id,
    name: `Scripted ${id}`,
    script,
    calls: [],
    aborted: 0,
    inputs: [],
    operations: textOnlyOperations('This provider works from text only here.'),
    capabilities: () => ({ ...capabilities, operations: provider.operations }),
    knownModels: () => ['scripted-1'],
    isConfigured: () => true,
    validate(request) {
      if (request.count > capabilities.maxCount) throw new AppError('invalid_request', 'Too many images.');
    },
    async test() {
      return { ok: true, reachable: true, models: ['scripted-1'], latencyMs: 1, message: 'ok' };
    },
    async generate(request, _config, ctx): Promise<ProviderOutput> {
      provider.calls.push(request);
      provider.inputs.push(ctx.inputs);
      const step = provider.script.length > 1 ? provider.script.shift()! : provider.script[0]!;
      ctx.signal.addEventListener('abort', () => (provider.aborted += 1), { once: true });
      if (step.kind === 'hang') {
        ctx.onAccepted();
        await new Promise<never>((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new AppError('cancelled', 'aborted')), { once: true }),
        );
      }
      if (step.kind === 'fail') {
        if (step.afterAccept) ctx.onAccepted();
        if (step.delayMs) await wait(step.delayMs, ctx.signal);
        throw step.error;
      }
      ctx.onAccepted();
      const total = step.kind === 'succeed' ? (step.progressSteps ?? 4) : 0;
      const partials = step.kind === 'succeed' ? (step.partials ?? 0) : 0;
      for (let i = 1; i <= total; i += 1) {
        await wait((step.kind === 'succeed' ? (step.delayMs ?? 40) : 0) / total, ctx.signal);
        ctx.onProgress({ stage: 'generating', step: i, steps: total, fraction: i / total, etaMs: (total - i) * 10 });
        if (i <= partials) ctx.onPartialImage({ data: await solidPng(64, 64, i), mime: 'image/png' });
      }
      const images = [];
      for (let i = 0; i < request.count; i += 1) {
        const seed = offsetSeed(request.seed ?? 1, i);
        images.push({
          data: await solidPng(request.width, request.height, Number(seedToBigInt(seed) % 256n)),
          mime: 'image/png',
          seed,
        });
      }
      return { images, seed: request.seed ?? 1, usage: { scripted: true } };
    },
  };
  return provider;
}

export function scriptedEntry(provider: ScriptedProvider, concurrency = 2): ProviderEntry {
  return { provider, defaults: { enabled: true, timeoutMs: 10_000, concurrency } };
}
