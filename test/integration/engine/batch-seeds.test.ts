import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, JobDetail } from '../../../shared/contract.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { readPngMetadata } from '../../../electron/media/png/read-metadata.js';
import {
  startFakeA1111,
  startFakeComfyUI,
  startFakeOpenAI,
  type FakeA1111,
  type FakeComfy,
  type FakeOpenAI,
} from '../../fakes/index.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

type Submit = Omit<GenerateRequest, 'idempotencyKey'>;

describe('each image of a batch carries its own seed', () => {
  let h: Harness | undefined;
  let a1111: FakeA1111 | undefined;
  let comfy: FakeComfy | undefined;
  let openai: FakeOpenAI | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await a1111?.close();
    await comfy?.close();
    await openai?.close();
    h = a1111 = comfy = openai = undefined;
  });

  async function run(request: Submit): Promise<JobDetail> {
    const { job } = await h!.engine.handlers['jobs.submit'](request);
    const done = await waitForStatus(h!.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    return done;
  }

  /** What each stored PNG says about itself, in image order. */
  function embedded(job: JobDetail) {
    return job.images.map((image) => {
      const file = h!.engine.resolveMedia('image', image.id);
      const meta = readPngMetadata(readFileSync(file!.path));
      return {
        atelier: meta.atelier?.seed,
        batchIndex: meta.atelier?.batchIndex,
        parameters: meta.a1111?.seed,
        batchPos: meta.a1111?.params['Batch pos'],
      };
    });
  }

  async function listed(id: string) {
    const page = await h!.engine.handlers['jobs.list']({ limit: 10, view: 'active' });
    return page.items.find((j) => j.id === id)!.images;
  }

  it('built-in, count 3, seed 424242: image 3 is 424244 in jobs.get, jobs.list, its PNG and the trace', async () => {
    h = await startHarness({ providers: defaultProviders() });
    const done = await run({
      provider: 'builtin',
      prompt: 'three lanterns',
      width: 64,
      height: 64,
      count: 3,
      seed: 424242,
    });
    expect(done.images.map((i) => i.seed)).toEqual([424242, 424243, 424244]);
    expect((await listed(done.id)).map((i) => i.seed)).toEqual([424242, 424243, 424244]);
    expect(embedded(done)).toEqual(
      [424242, 424243, 424244].map((s) => ({ atelier: s, batchIndex: undefined, parameters: s, batchPos: undefined })),
    );
    expect(done.events.filter((e) => e.kind === 'render').map((e) => e.data?.['seed'])).toEqual([
      424242, 424243, 424244,
    ]);
    // A restart reads the same seeds back from the database.
    await h.engine.close({ graceMs: 0 });
    await h.open();
    expect((await h.engine.handlers['jobs.get']({ id: done.id })).images.map((i) => i.seed)).toEqual([
      424242, 424243, 424244,
    ]);
  });

  it('A1111: each image keeps the seed from its all_seeds', async () => {
    a1111 = await startFakeA1111();
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a1111.url } } });
    const done = await run({
      provider: 'a1111',
      prompt: 'three kites',
      width: 64,
      height: 64,
      count: 3,
      seed: 9000,
      steps: 2,
    });
    expect(done.images.map((i) => i.seed)).toEqual([9000, 9001, 9002]);
    expect(embedded(done).map((e) => e.atelier)).toEqual([9000, 9001, 9002]);
  });

  it('ComfyUI: a batch shares one seed, so each image records the seed and its place in the batch', async () => {
    comfy = await startFakeComfyUI();
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({
      providers: { comfyui: { enabled: true, baseUrl: comfy.url, model: 'v1-5-pruned-emaonly.safetensors' } },
    });
    const done = await run({
      provider: 'comfyui',
      prompt: 'three boats',
      width: 64,
      height: 64,
      count: 3,
      seed: 777,
      steps: 2,
    });
    expect(done.images.map((i) => [i.seed, i.batchIndex])).toEqual([
      [777, 0],
      [777, 1],
      [777, 2],
    ]);
    expect((await listed(done.id)).map((i) => i.batchIndex)).toEqual([0, 1, 2]);
    expect(embedded(done)).toEqual(
      [0, 1, 2].map((i) => ({ atelier: 777, batchIndex: i, parameters: 777, batchPos: String(i) })),
    );
  });

  it('OpenAI: no seed is claimed for any image', async () => {
    openai = await startFakeOpenAI({ apiKey: 'sk-seeds-0123456789' });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({
      providers: { openai: { apiKey: 'sk-seeds-0123456789', baseUrl: openai.url } },
    });
    const done = await run({
      provider: 'openai',
      model: 'gpt-image-1',
      prompt: 'three bowls',
      width: 1024,
      height: 1024,
      count: 3,
    });
    expect(done.images).toHaveLength(3);
    expect(done.images.map((i) => i.seed)).toEqual([undefined, undefined, undefined]);
    expect(embedded(done).map((e) => e.atelier)).toEqual([undefined, undefined, undefined]);
  });
});
