import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { A1111_LORAS } from '../../fakes/a1111.js';
import { type FakeA1111, type FakeComfy, startFakeA1111, startFakeComfyUI } from '../../fakes/index.js';
import { type Harness, startHarness, waitForStatus } from './harness.js';

const SHA = '6ce0161689b3853acaa03779ec93eafe75a02f4ced659bee03f50797806fa2fa';
const A1111_MODELS = [
  { title: 'v1-5 [6ce0161689]', model_name: 'v1-5-pruned-emaonly', hash: '6ce0161689', sha256: SHA, filename: 'x' },
  { title: 'only here', model_name: 'juggernautXL_v9', hash: '1234567890', sha256: null, filename: 'y' },
];

describe('the model library', () => {
  let h: Harness | undefined;
  let a1111: FakeA1111 | undefined;
  let comfy: FakeComfy | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await a1111?.close();
    await comfy?.close();
    h = a1111 = comfy = undefined;
  });

  async function connected(library: Parameters<typeof startFakeA1111>[0] = {}): Promise<Harness> {
    a1111 = await startFakeA1111({ library: { sdModels: A1111_MODELS }, ...library });
    comfy = await startFakeComfyUI({
      checkpoints: ['SD15/v1-5-pruned-emaonly.safetensors', 'dreamshaper_8.safetensors'],
      loras: ['detail/add_detail.safetensors'],
      embeddings: ['EasyNegative'],
    });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({
      providers: { a1111: { enabled: true, baseUrl: a1111.url }, comfyui: { enabled: true, baseUrl: comfy.url } },
    });
    return h;
  }
  const library = (query: Record<string, unknown> = {}) =>
    h!.engine.handlers['models.library']({ sort: 'name', limit: 2_000, ...query });

  it('lists every server again on refresh and merges one file across servers, by hash or else by name', async () => {
    const { engine } = await connected();
    expect((await library()).items).toEqual([]);
    const refreshed = await engine.handlers['models.refresh']({});
    expect(refreshed.servers).toBe(2);
    const { items, baseModels } = await library();
    const byName = Object.fromEntries(items.map((m) => [`${m.kind}:${m.name}`, m]));
    expect(byName['checkpoint:v1-5-pruned-emaonly']).toMatchObject({
      key: 'checkpoint:6ce0161689',
      hash: SHA,
      servers: [
        { provider: 'a1111', name: 'v1-5-pruned-emaonly' },
        { provider: 'comfyui', name: 'SD15/v1-5-pruned-emaonly.safetensors' },
      ],
      imageCount: 0,
    });
    expect(byName['lora:add_detail']).toMatchObject({
      key: 'lora:7c6bad76eb',
      baseModel: 'sd15',
      triggerWords: ['sharp focus', 'detailed', 'intricate'],
      servers: [
        { provider: 'a1111', name: 'add_detail' },
        { provider: 'comfyui', name: 'detail/add_detail.safetensors' },
      ],
    });
    expect(byName['embedding:EasyNegative']!.servers.map((s) => s.provider)).toEqual(['a1111', 'comfyui']);
    expect(byName['embedding:bad-hands-xl']!.servers.map((s) => s.provider)).toEqual(['a1111']);
    expect(byName['vae:vae-ft-mse-840000']!.servers.map((s) => s.provider)).toEqual(['a1111']);
    expect(byName['checkpoint:dreamshaper_8']!.key).toBe('checkpoint:dreamshaper_8');
    expect(refreshed.models).toBe(A1111_MODELS.length + A1111_LORAS.length + 2 + 1 + /* comfy */ 2 + 1 + 1);
    expect(baseModels).toEqual(['sd15']);
  });

  it('a server that is turned off is not in the library; an endpoint a server lacks drops only that kind', async () => {
    const { engine } = await connected({ library: { sdModels: A1111_MODELS, loras: 404, embeddings: 'nonsense' } });
    await engine.handlers['models.refresh']({});
    await engine.handlers['settings.update']({ providers: { comfyui: { enabled: false } } });
    const kinds = (await library()).items.map((m) => `${m.kind}:${m.name}:${m.servers.length}`);
    expect(kinds).toEqual([
      'checkpoint:juggernautXL_v9:1',
      'checkpoint:v1-5-pruned-emaonly:1',
      'vae:vae-ft-mse-840000:1',
    ]);
  });

  it('shows each entry through the images made with it: count, last use, the best-rated as preview; filters and sorts', async () => {
    const { engine } = await connected();
    await engine.handlers['models.refresh']({});
    const submit = (model: string, loras: Array<{ name: string; weight: number }> = []) =>
      engine.handlers['jobs.submit']({
        provider: 'comfyui',
        prompt: 'a lighthouse',
        width: 64,
        height: 64,
        count: 1,
        steps: 2,
        model,
        ...(loras.length > 0 ? { loras } : {}),
      });
    const first = (await submit('dreamshaper_8.safetensors', [{ name: 'detail/add_detail.safetensors', weight: 0.6 }]))
      .job;
    const second = (await submit('dreamshaper_8.safetensors')).job;
    const a = await waitForStatus(engine, first.id, ['succeeded', 'failed']);
    const b = await waitForStatus(engine, second.id, ['succeeded', 'failed']);
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
    const firstImage = (await engine.handlers['jobs.get']({ id: first.id })).images[0]!.id;
    await engine.handlers['images.setRating']({ ids: [firstImage], rating: 4 });

    const dream = (await library({ search: 'dreamshaper' })).items;
    expect(dream).toHaveLength(1);
    expect(dream[0]).toMatchObject({
      imageCount: 2,
      lastUsedAt: b.createdAt,
      preview: { imageId: firstImage, jobId: first.id, rating: 4 },
    });
    expect((await library({ kind: 'lora' })).items.map((m) => [m.name, m.imageCount])).toEqual([
      ['add_detail', 1],
      ['pixel_art_xl', 0],
    ]);
    expect((await library({ search: 'SHARP' })).items.map((m) => m.name)).toEqual(['add_detail']);
    expect((await library({ baseModel: 'sd15' })).items.map((m) => m.name)).toEqual(['add_detail']);
    const used = await library({ sort: 'used', limit: 2 });
    expect(used.items.map((m) => m.name)).toEqual(['dreamshaper_8', 'add_detail']);
    expect(used.total).toBeGreaterThan(2);
    expect((await library({ sort: 'recent', limit: 1 })).items[0]!.name).toBe('dreamshaper_8');

    await engine.handlers['images.trash']({ ids: [firstImage] });
    expect((await library({ search: 'dreamshaper' })).items[0]).toMatchObject({ imageCount: 1 });
    expect((await library({ search: 'dreamshaper' })).items[0]!.preview?.jobId).toBe(second.id);
  });

  it('keeps a note per entry and each server list across a restart', async () => {
    const { engine } = await connected();
    await engine.handlers['models.refresh']({});
    expect(await engine.handlers['models.setNote']({ key: 'lora:7c6bad76eb', note: ' best at 0.6 ' })).toEqual({
      note: 'best at 0.6',
    });
    await engine.close({ graceMs: 0 });
    await a1111!.close();
    await comfy!.close();
    a1111 = comfy = undefined;
    await h!.open();
    const lora = (await library({ search: 'add_detail' })).items[0]!;
    expect(lora).toMatchObject({ note: 'best at 0.6', triggerWords: ['sharp focus', 'detailed', 'intricate'] });
    expect(lora.servers).toHaveLength(2);
    await h!.engine.handlers['models.setNote']({ key: 'lora:7c6bad76eb', note: '' });
    expect((await library({ search: 'add_detail' })).items[0]!.note).toBeUndefined();
  });
});
