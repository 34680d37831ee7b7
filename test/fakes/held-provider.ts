/**
 * An in-process provider the test drives by hand: a job stays running until the test advances it a step (with a
 * partial preview) or lets it finish, so what the page shows mid-render is read without any timing.
 */
import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';
import type { GenerateRequest } from '../../shared/contract.js';
import type { ProviderOutput } from '../../electron/providers/types.js';
import type { ProviderEntry } from '../../electron/engine/provider-registry.js';
import { createScriptedProvider, type ScriptedProvider } from './scripted-provider.js';

export type PreviewTone = 'light' | 'dark';

/** A soft vertical gradient with a horizon band, light (a hazy morning) or dark (a night sky). */
export async function gradientPng(width: number, height: number, tone: PreviewTone, step = 0): Promise<Uint8Array> {
  const [top, bottom, band] = tone === 'light' ? ['#fbf4e6', '#f2c79b', '#fffaf0'] : ['#0d1424', '#27304a', '#3b4668'];
  const y = Math.round(height * (0.55 + 0.02 * (step % 5)));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/>
    <rect y="${y}" width="${width}" height="${Math.max(2, Math.round(height / 14))}" fill="${band}" opacity="0.7"/>
  </svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

interface Held {
  request: GenerateRequest;
  step(n: number, steps: number, tone?: PreviewTone): Promise<void>;
  finish(tone?: PreviewTone): void;
}

export interface HeldProvider extends ScriptedProvider {
  /** The running jobs, in the order they started, by prompt. */
  held: Map<string, Held>;
  /** Resolves once a job with this prompt is running on the provider. */
  started(prompt: string): Promise<Held>;
}

export function createHeldProvider(id = 'held'): HeldProvider {
  const base = createScriptedProvider(id);
  const held = new Map<string, Held>();
  const waiting = new Map<string, Array<(h: Held) => void>>();
  const provider: HeldProvider = {
    ...base,
    name: 'Held (test)',
    held,
    started(prompt) {
      const now = held.get(prompt);
      if (now !== undefined) return Promise.resolve(now);
      return new Promise((resolve) => waiting.set(prompt, [...(waiting.get(prompt) ?? []), resolve]));
    },
    async generate(request, _config, ctx): Promise<ProviderOutput> {
      provider.calls.push(request);
      ctx.onAccepted();
      return new Promise<ProviderOutput>((resolve, reject) => {
        ctx.signal.addEventListener(
          'abort',
          () => {
            provider.aborted += 1;
            held.delete(request.prompt);
            reject(new AppError('cancelled', 'Cancelled.'));
          },
          { once: true },
        );
        const job: Held = {
          request,
          async step(n, steps, tone = 'light') {
            ctx.onProgress({ stage: 'sampling', step: n, steps, fraction: n / steps });
            ctx.onPartialImage({
              data: await gradientPng(request.width / 8, request.height / 8, tone, n),
              mime: 'image/png',
            });
          },
          finish(tone = 'light') {
            held.delete(request.prompt);
            void Promise.all(
              Array.from({ length: request.count }, (_, i) => gradientPng(request.width, request.height, tone, i)),
            ).then((datas) =>
              resolve({
                images: datas.map((data) => ({ data, mime: 'image/png' as const })),
                seed: request.seed ?? 1,
                usage: {},
              }),
            );
          },
        };
        held.set(request.prompt, job);
        for (const wake of waiting.get(request.prompt) ?? []) wake(job);
        waiting.delete(request.prompt);
      });
    },
  };
  return provider;
}

export function heldEntry(provider: HeldProvider, concurrency = 2): ProviderEntry {
  return { provider, defaults: { enabled: true, timeoutMs: 600_000, concurrency } };
}
