import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayName, modelLibrary, stemOf, type LibrarySources } from '../../../electron/engine/model-library.js';
import type { ModelUsage, UsageRow } from '../../../electron/db/model-usage.js';
import { LibraryModel, ModelLibraryQuery, type ServerModel } from '../../../shared/contract.js';

const SHA = '6ce0161689b3853acaa03779ec93eafe75a02f4ced659bee03f50797806fa2fa';
const use = (key: string, images: number, at: number, rank = 0, label = key): UsageRow => ({
  key,
  label,
  images,
  lastUsedAt: at,
  bestJobId: `job-${key}-${at}`,
  bestRank: rank,
});
const sources = (servers: LibrarySources['servers'], usage: Partial<ModelUsage> = {}): LibrarySources => ({
  servers,
  usage: { models: [], loras: [], hashes: [], ...usage },
  notes: new Map(),
  previewImage: (jobId) => ({ imageId: `img-of-${jobId}`, rating: 3 }),
});
const ask = (query: Partial<ModelLibraryQuery> = {}) => ModelLibraryQuery.parse({ sort: 'name', ...query });

describe('model library merge', () => {
  it('a short A1111 hash and a full sha256 are one file, whatever the names', () => {
    const { items } = modelLibrary(
      sources([
        { provider: 'a', library: [{ kind: 'checkpoint', name: 'v15', hash: SHA.slice(0, 10) }] },
        { provider: 'b', library: [{ kind: 'checkpoint', name: 'other/name.ckpt', hash: SHA }] },
      ]),
      ask(),
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ key: 'checkpoint:6ce0161689', hash: SHA, name: 'v15' });
    expect(items[0]!.servers.map((s) => s.name)).toEqual(['v15', 'other/name.ckpt']);
  });

  it('two different hashes under one name are two files; the kind keeps a LoRA apart from a checkpoint', () => {
    const { items } = modelLibrary(
      sources([
        { provider: 'a', library: [{ kind: 'lora', name: 'style', hash: 'aaaaaaaaaaaa' }] },
        {
          provider: 'b',
          library: [
            { kind: 'lora', name: 'style.safetensors', hash: 'bbbbbbbbbbbb' },
            { kind: 'checkpoint', name: 'style' },
          ],
        },
      ]),
      ask(),
    );
    expect(items.map((m) => m.key).sort()).toEqual(['checkpoint:style', 'lora:aaaaaaaaaa', 'lora:bbbbbbbbbb']);
  });

  it('images find their entry by the hash their file recorded, else by name; the rest are entries of their own', () => {
    const { items } = modelLibrary(
      sources(
        [{ provider: 'a', library: [{ kind: 'checkpoint', name: 'Dream/DreamShaper_8.safetensors', hash: SHA }] }],
        {
          models: [
            use('ds8 renamed', 2, 10, 3),
            use('dreamshaper_8.safetensors', 1, 20, 6),
            use('only_imported', 4, 5, 0, 'Only_Imported'),
          ],
          loras: [use('ink', 1, 7)],
          hashes: [{ key: 'ds8 renamed', hash: SHA.slice(0, 10) }],
        },
      ),
      ask(),
    );
    const byKey = Object.fromEntries(items.map((m) => [m.key, m]));
    expect(byKey['checkpoint:6ce0161689']).toMatchObject({
      imageCount: 3,
      lastUsedAt: 20,
      preview: { jobId: 'job-dreamshaper_8.safetensors-20', imageId: 'img-of-job-dreamshaper_8.safetensors-20' },
    });
    expect(byKey['checkpoint:only_imported']).toMatchObject({ name: 'Only_Imported', servers: [], imageCount: 4 });
    expect(byKey['lora:ink']).toMatchObject({ servers: [], imageCount: 1 });
  });

  it('names without folders, extension or hash suffix', () => {
    expect(displayName('SDXL\\juggernaut.safetensors [1234567890]')).toBe('juggernaut');
    expect(stemOf('a/b/Červená_v2.ckpt')).toBe('cervena_v2');
    expect(displayName('.safetensors')).toBe('.safetensors');
  });

  it('answers valid entries for any server lists and query, bounded by the limit, total before it', () => {
    const model = fc.record(
      {
        kind: fc.constantFrom('checkpoint', 'lora', 'embedding', 'vae'),
        name: fc.string({ minLength: 1, maxLength: 30 }),
        hash: fc.option(fc.stringMatching(/^[0-9a-f]{10,64}$/), { nil: undefined }),
        baseModel: fc.option(fc.constantFrom('sd15', 'sdxl'), { nil: undefined }),
      },
      { requiredKeys: ['kind', 'name'] },
    );
    const servers = fc.array(
      fc.record({ provider: fc.constantFrom('a', 'b', 'c'), library: fc.array(model, { maxLength: 20 }) }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(servers, fc.integer({ min: 1, max: 10 }), fc.string({ maxLength: 5 }), (list, limit, search) => {
        const clean = list.map((s) => ({
          provider: s.provider,
          library: s.library.map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined))),
        })) as Array<{ provider: string; library: ServerModel[] }>;
        const result = modelLibrary(sources(clean), ask({ limit, search }));
        expect(result.items.length).toBe(Math.min(limit, result.total));
        for (const item of result.items) expect(LibraryModel.safeParse(item).success).toBe(true);
        expect(new Set(result.items.map((m) => m.key)).size).toBe(result.items.length);
      }),
      { numRuns: 200 },
    );
  });
});
