import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { createBuiltinProvider, type BuiltinProvider } from '../../../electron/providers/builtin/index.js';
import { RenderPool } from '../../../electron/providers/builtin/worker-pool.js';
import { buildScene } from '../../../electron/providers/builtin/scene.js';
import { config, recordingContext, request } from './builtin-helpers.js';

const open: Array<{ close(): Promise<void> }> = [];
function track<T extends { close(): Promise<void> }>(thing: T): T {
  open.push(thing);
  return thing;
}
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

describe('builtin provider: cancel', () => {
  // How fast a cancel lets go, and the main loop's delay during a render, are figures: `npm run bench -- cancel`.
  it('a cancel mid-render of a 2048² job rejects with cancelled before the render finishes', async () => {
    const provider: BuiltinProvider = track(createBuiltinProvider({ size: 1 }));
    const rec = recordingContext();
    const running = provider.generate(request({ width: 2048, height: 2048, partialImages: 0 }), config, rec.context);
    // Wait until the full-size render is really under way (some bands done).
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if ((rec.progress.at(-1)?.fraction ?? 0) > 0.05) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    rec.controller.abort();
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('cancelled');
    // Ordering, not a stopwatch: the rejection came before the render reached its end.
    expect(rec.progress.at(-1)!.fraction).toBeLessThan(1);

    // The worker is free again: the next job renders normally.
    const next = recordingContext();
    const output = await provider.generate(request(), config, next.context);
    expect(output.images).toHaveLength(1);
  }, 60_000);

  it('the render worker itself stops within a band after the abort (slot freed, no full render)', async () => {
    const pool = track(new RenderPool({ size: 1 }));
    const scene = buildScene({ prompt: 'mountains at night', seed: 3 });
    const controller = new AbortController();
    let rows = 0;
    const first = pool.render(
      { width: 2048, height: 2048, scene },
      { signal: controller.signal, onRows: (r) => (rows = r) },
    );
    while (rows < 64) await new Promise((r) => setTimeout(r, 2));
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    // A small render queued behind it completes only once the worker has let go of the big one (how soon: the bench).
    await pool.render({ width: 64, height: 64, scene }, { signal: new AbortController().signal });
    expect(pool.workerCount).toBe(1);
  }, 60_000);

  it('an already-aborted signal is refused before any work', async () => {
    const provider = track(createBuiltinProvider());
    const rec = recordingContext();
    rec.controller.abort();
    await expect(provider.generate(request(), config, rec.context)).rejects.toMatchObject({ code: 'cancelled' });
    expect(rec.accepted).toBe(0);
  });

  it('close() stops the workers: pending work rejects and later calls are refused', async () => {
    const provider = createBuiltinProvider({ size: 1 });
    const rec = recordingContext();
    const running = provider.generate(request({ width: 2048, height: 2048 }), config, rec.context);
    const outcome = running.catch((e: unknown) => e);
    // The render is under way on the worker (a band done), not merely 50 ms old.
    while ((rec.progress.at(-1)?.fraction ?? 0) === 0) await new Promise((r) => setTimeout(r, 2));
    await provider.close();
    const error = await outcome;
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('cancelled');
    await expect(provider.generate(request(), config, recordingContext().context)).rejects.toMatchObject({
      code: 'internal',
    });
  }, 60_000);
});
