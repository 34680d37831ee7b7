import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkpointsOf,
  embeddingsOf,
  lorasOf,
  triggerWordsOf,
  vaesOf,
} from '../../../../electron/providers/a1111/library-listing.js';
import { LIBRARY_LIMITS, baseModelOf } from '../../../../electron/providers/server-models.js';
import { ServerModel } from '../../../../shared/contract.js';

const SHA = '6ce0161689b3853acaa03779ec93eafe75a02f4ced659bee03f50797806fa2fa';

describe('A1111 library listing', () => {
  it('reads checkpoints by model_name with the sha256, else the short hash', () => {
    expect(
      checkpointsOf([
        { title: 'v1-5 [6ce0161689]', model_name: 'v1-5-pruned-emaonly', hash: '6ce0161689', sha256: SHA },
        { title: 'x', model_name: 'sd_xl_base_1.0', hash: '31E35C80FC', sha256: null },
        { title: 'no hash', model_name: 'plain', hash: null, sha256: null },
        { title: 'no name' },
      ]),
    ).toEqual([
      { kind: 'checkpoint', name: 'v1-5-pruned-emaonly', hash: SHA },
      { kind: 'checkpoint', name: 'sd_xl_base_1.0', hash: '31e35c80fc' },
      { kind: 'checkpoint', name: 'plain' },
    ]);
  });

  it('reads a LoRA: its hash, base model and trigger words, most trained first across folders', () => {
    const [lora] = lorasOf([
      {
        name: 'add_detail',
        alias: 'add_detail',
        path: '/models/Lora/add_detail.safetensors',
        metadata: {
          ss_base_model_version: 'sdxl_base_v1-0',
          sshs_model_hash: SHA.toUpperCase(),
          ss_tag_frequency: { '10_detail': { detailed: 4, sharp: 9 }, '5_more': { detailed: 7, 'bad\u0001tag': 50 } },
        },
      },
    ]);
    expect(lora).toEqual({
      kind: 'lora',
      name: 'add_detail',
      hash: SHA,
      baseModel: 'sdxl',
      triggerWords: ['detailed', 'sharp'],
    });
  });

  it('reads ss_tag_frequency still as JSON text, and ignores one too long to parse', () => {
    expect(triggerWordsOf(JSON.stringify({ a: { fox: 1, owl: 3 } }))).toEqual(['owl', 'fox']);
    expect(triggerWordsOf(`{"a":{"fox":1,"pad":"${'x'.repeat(LIBRARY_LIMITS.tagJson)}"}}`)).toEqual([]);
    expect(triggerWordsOf('{not json')).toEqual([]);
  });

  it('names the base model family from what kohya or the model spec wrote', () => {
    expect(baseModelOf('stable-diffusion-xl-v1-base/lora')).toBe('sdxl');
    expect(baseModelOf(undefined, 'sd_v1')).toBe('sd15');
    expect(baseModelOf(undefined, undefined, 'runwayml/stable-diffusion-v1-5')).toBe('sd15');
    expect(baseModelOf('flux-1-dev/lora')).toBe('flux');
    expect(baseModelOf(undefined, 'sd_2.1')).toBe('sd2');
    expect(baseModelOf(42, 'something-new')).toBe('something-new');
  });

  it('reads embeddings loaded and skipped, and VAEs', () => {
    expect(embeddingsOf({ loaded: { EasyNegative: { step: null } }, skipped: { 'bad-hands': {} } })).toEqual([
      { kind: 'embedding', name: 'EasyNegative' },
      { kind: 'embedding', name: 'bad-hands' },
    ]);
    expect(vaesOf([{ model_name: 'sdxl_vae.safetensors', filename: '/m/VAE/sdxl_vae.safetensors' }])).toEqual([
      { kind: 'vae', name: 'sdxl_vae.safetensors' },
    ]);
    expect(embeddingsOf([1, 2])).toEqual([]);
    expect(vaesOf({ detail: 'Not Found' })).toEqual([]);
  });

  it('takes no prototype from metadata keys and keeps each list bounded', () => {
    const hostile = JSON.parse(
      '[{"name":"__proto__","metadata":{"__proto__":{"polluted":1},"ss_tag_frequency":{"__proto__":{"constructor":5}}}}]',
    ) as unknown;
    const [lora] = lorasOf(hostile);
    expect(lora).toEqual({ kind: 'lora', name: '__proto__', triggerWords: ['constructor'] });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const many = Array.from({ length: LIBRARY_LIMITS.perKind + 50 }, (_, i) => ({ model_name: `m${i}` }));
    expect(checkpointsOf(many)).toHaveLength(LIBRARY_LIMITS.perKind);
  });

  it('turns any JSON a server sends into valid entries, never throwing', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.string({ unit: 'binary' }),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(
          fc.oneof(
            fc.constantFrom('name', 'model_name', 'metadata', 'loaded', 'skipped', 'sha256', 'hash', '__proto__'),
            fc.constantFrom('ss_tag_frequency', 'sshs_model_hash', 'ss_base_model_version', 'modelspec.architecture'),
            fc.string(),
          ),
          tie('value'),
          { maxKeys: 5 },
        ),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        for (const parse of [checkpointsOf, lorasOf, embeddingsOf, vaesOf]) {
          for (const model of parse(value)) expect(ServerModel.safeParse(model).success).toBe(true);
        }
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});

describe('A1111 trigger words, bounded work', () => {
  it('reads no more than its bound of tags from a hostile ss_tag_frequency', () => {
    let reads = 0;
    const folder: Record<string, number> = {};
    for (let i = 0; i < LIBRARY_LIMITS.tagsRead * 5; i++) {
      Object.defineProperty(folder, `tag${i}`, {
        enumerable: true,
        get: () => {
          reads += 1;
          return i;
        },
      });
    }
    const words = triggerWordsOf({ a: folder, b: folder });
    expect(reads).toBe(LIBRARY_LIMITS.tagsRead);
    expect(words).toHaveLength(LIBRARY_LIMITS.triggerWords);
    expect(words[0]).toBe(`tag${LIBRARY_LIMITS.tagsRead - 1}`);
  });
});
