import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { AppError } from '../../../shared/errors.js';
import { type FakeA1111, type FakeComfy, startFakeA1111, startFakeComfyUI } from '../../fakes/index.js';
import { type Harness, startHarness, waitForStatus } from './harness.js';

const CHECKPOINTS = ['dreamshaper_8.safetensors'];
const LORAS = ['styles/add_detail.safetensors', 'ink.safetensors'];

describe('LoRAs on jobs made here', () => {
  let h: Harness | undefined;
  let comfy: FakeComfy | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await comfy?.close();
    h = comfy = undefined;
  });

  async function connected(): Promise<Harness> {
    comfy = await startFakeComfyUI({ checkpoints: CHECKPOINTS, loras: LORAS });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { comfyui: { enabled: true, baseUrl: comfy.url } } });
    await h.engine.handlers['providers.test']({ id: 'comfyui' });
    return h;
  }
  const ask = (prompt: string, extra: Record<string, unknown> = {}) => ({
    provider: 'comfyui',
    prompt,
    width: 64,
    height: 64,
    count: 1,
    steps: 2,
    ...extra,
  });

  it('a job with LoRAs runs with them, keeps its prompt, and is found by lora: as an imported one is', async () => {
    const { engine } = await connected();
    const { job } = await engine.handlers['jobs.submit'](
      ask('a harbour at dusk', { loras: [{ name: 'styles/add_detail.safetensors', weight: 0.6 }] }),
    );
    const plain = (await engine.handlers['jobs.submit'](ask('a harbour at noon'))).job;
    expect((await waitForStatus(engine, job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    await waitForStatus(engine, plain.id, ['succeeded', 'failed']);
    expect(job.request.prompt).toBe('a harbour at dusk');
    expect(job.request.loras).toEqual([{ name: 'styles/add_detail.safetensors', weight: 0.6 }]);
    const found = await engine.handlers['jobs.list']({ search: 'lora:add_detail', limit: 50, view: 'active' });
    expect(found.items.map((j) => j.id)).toEqual([job.id]);
    expect((await engine.handlers['jobs.list']({ search: 'lora:ink', limit: 50, view: 'active' })).items).toEqual([]);
  });

  it('a model no connected server has is named before anything is stored or sent', async () => {
    const { engine } = await connected();
    const refused = await engine.handlers['jobs.submit'](ask('a fox', { model: 'gone.safetensors' })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'invalid_request',
      message: 'No connected server has the model “gone.safetensors”.',
      details: { field: 'model', missing: [{ kind: 'model', name: 'gone.safetensors', field: 'model' }] },
    });
    expect((await engine.handlers['jobs.list']({ limit: 50, view: 'active' })).items).toEqual([]);
    expect(comfy!.promptRequests()).toHaveLength(0);
    // A different spelling of a listed checkpoint is the same file.
    const { job } = await engine.handlers['jobs.submit'](ask('a fox', { model: 'Dreamshaper_8' }));
    expect(job.status).toBe('queued');
  });
  it('a LoRA the server lists under another spelling runs by its name there; ones it lacks are all named', async () => {
    const { engine } = await connected();
    const refused = await engine.handlers['jobs.submit'](
      ask('a fox', {
        loras: [
          { name: 'add_detail', weight: 1 },
          { name: 'gone', weight: 1 },
          { name: 'also-gone.safetensors', weight: 0.5 },
        ],
      }),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: 'invalid_request',
      message: 'No connected server has the LoRAs “gone”, “also-gone.safetensors”.',
      details: { field: 'loras.1.name' },
    });
    expect(comfy!.promptRequests()).toHaveLength(0);

    const { job } = await engine.handlers['jobs.submit'](
      ask('a fox', { loras: [{ name: 'Add_Detail', weight: 0.5 }] }),
    );
    expect(job.request.loras).toEqual([{ name: 'styles/add_detail.safetensors', weight: 0.5 }]);
    expect((await waitForStatus(engine, job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    const graph = (
      comfy!.promptRequests()[0]!.json as {
        prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
      }
    ).prompt;
    expect(Object.values(graph).find((n) => n.class_type === 'LoraLoader')?.inputs.lora_name).toBe(
      'styles/add_detail.safetensors',
    );
  });
  it('A1111: a LoRA from a ComfyUI image runs by A1111’s name as a tag; one its /sdapi/v1/loras lacks is named', async () => {
    const a1111: FakeA1111 = await startFakeA1111();
    try {
      h = await startHarness({ providers: defaultProviders() });
      const { engine } = h;
      await engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a1111.url } } });
      await engine.handlers['providers.test']({ id: 'a1111' });
      const asked = (loras: Array<{ name: string; weight: number }>) =>
        ask('a moth', { provider: 'a1111', steps: 2, loras });
      await expect(engine.handlers['jobs.submit'](asked([{ name: 'nothing', weight: 1 }]))).rejects.toMatchObject({
        message: 'No connected server has the LoRA “nothing”.',
      });
      const { job } = await engine.handlers['jobs.submit'](
        asked([{ name: 'styles/pixel_art_xl.safetensors', weight: 0.75 }]),
      );
      expect((await waitForStatus(engine, job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
      expect(job.request.prompt).toBe('a moth');
      expect((a1111.generationRequests()[0]!.json as { prompt: string }).prompt).toBe(
        'a moth <lora:pixel_art_xl:0.75>',
      );
    } finally {
      await a1111.close();
    }
  });
});
