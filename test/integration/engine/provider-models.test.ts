import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startFakeA1111, startFakeComfyUI, type FakeA1111, type FakeComfy } from '../../fakes/index.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const CHECKPOINTS = ['dreamshaper_8.safetensors', 'sd_xl_base_1.0.safetensors'];

describe('the servers’ model lists are kept and used', () => {
  let h: Harness | undefined;
  let comfy: FakeComfy | undefined;
  let a1111: FakeA1111 | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await comfy?.close();
    await a1111?.close();
    h = comfy = a1111 = undefined;
  });

  async function listed(id: string) {
    const { providers } = await h!.engine.handlers['providers.list']({});
    return providers.find((p) => p.id === id)!;
  }

  it('ComfyUI: Test lists the checkpoints, the list shows them, and a submit without a model runs with the first, recorded in the job', async () => {
    comfy = await startFakeComfyUI({ checkpoints: CHECKPOINTS });
    h = await startHarness({ providers: defaultProviders() });
    // Switched on while the list is being fetched elsewhere: nothing kept yet, and no model chosen.
    await h.engine.handlers['settings.update']({ providers: { comfyui: { baseUrl: comfy.url } } });
    expect((await listed('comfyui')).models).toEqual([]);
    await h.engine.handlers['settings.update']({ providers: { comfyui: { enabled: true } } });

    const test = await h.engine.handlers['providers.test']({ id: 'comfyui' });
    expect(test).toMatchObject({ ok: true, models: CHECKPOINTS });
    const info = await listed('comfyui');
    expect(info.models).toEqual(CHECKPOINTS);
    expect(info.modelsListedAt).toBeTypeOf('number');
    // The listing used what the test fetched: the server was asked once.
    expect(comfy.requests.filter((r) => r.path.endsWith('/object_info/CheckpointLoaderSimple'))).toHaveLength(1);

    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'comfyui',
      prompt: 'a harbour at dusk',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    expect(job.model).toBe(CHECKPOINTS[0]);
    expect(job.request.model).toBe(CHECKPOINTS[0]);
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    const graph = (
      comfy.promptRequests()[0]!.json as {
        prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
      }
    ).prompt;
    expect(Object.values(graph).find((n) => n.class_type === 'CheckpointLoaderSimple')!.inputs.ckpt_name).toBe(
      CHECKPOINTS[0],
    );
    // A chosen model is never replaced.
    const chosen = await h.engine.handlers['jobs.submit']({
      provider: 'comfyui',
      model: CHECKPOINTS[1],
      prompt: 'a harbour at noon',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    expect(chosen.job.model).toBe(CHECKPOINTS[1]);
    await waitForStatus(h.engine, chosen.job.id, ['succeeded', 'failed']);
  });

  it('the list survives a restart with the server gone, and still picks the model for a submit', async () => {
    comfy = await startFakeComfyUI({ checkpoints: CHECKPOINTS });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { comfyui: { enabled: true, baseUrl: comfy.url } } });
    await h.engine.handlers['providers.test']({ id: 'comfyui' });
    const listedAt = (await listed('comfyui')).modelsListedAt;

    await comfy.close();
    comfy = undefined;
    await h.engine.close({ graceMs: 0 });
    await h.open();
    const info = await listed('comfyui');
    expect(info.models).toEqual(CHECKPOINTS);
    expect(info.modelsListedAt).toBe(listedAt);
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'comfyui',
      prompt: 'an offline lighthouse',
      width: 64,
      height: 64,
      count: 1,
    });
    expect(job.request.model).toBe(CHECKPOINTS[0]);
  });

  it('a default model from Settings is what runs, and the job records it', async () => {
    comfy = await startFakeComfyUI({ checkpoints: CHECKPOINTS });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({
      providers: { comfyui: { enabled: true, baseUrl: comfy.url, model: CHECKPOINTS[1] } },
    });
    await h.engine.handlers['providers.test']({ id: 'comfyui' });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'comfyui',
      prompt: 'a harbour at night',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    expect(job.model).toBe(CHECKPOINTS[1]);
    await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    const graph = (
      comfy.promptRequests()[0]!.json as {
        prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
      }
    ).prompt;
    expect(Object.values(graph).find((n) => n.class_type === 'CheckpointLoaderSimple')!.inputs.ckpt_name).toBe(
      CHECKPOINTS[1],
    );
  });

  it('listing fetches a list that was never kept, for an enabled server (no Test pressed)', async () => {
    comfy = await startFakeComfyUI({ checkpoints: CHECKPOINTS, comboSpec: true });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { comfyui: { enabled: true, baseUrl: comfy.url } } });
    expect((await listed('comfyui')).models).toEqual(CHECKPOINTS);
  });

  it('A1111: its model list is kept too, and a submit without a model leaves the choice to A1111 (its loaded checkpoint)', async () => {
    a1111 = await startFakeA1111();
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a1111.url } } });
    const test = await h.engine.handlers['providers.test']({ id: 'a1111' });
    expect(test.ok).toBe(true);
    expect(test.models.length).toBeGreaterThan(0);
    expect((await listed('a1111')).models).toEqual(test.models);
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'a1111',
      prompt: 'a kite',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    expect(job.request.model).toBeUndefined();
  });
});
