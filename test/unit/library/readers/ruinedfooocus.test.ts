import { describe, expect, it } from 'vitest';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { readRuinedfooocus } from '../../../../electron/library/readers/ruinedfooocus.js';
import { encodeTextChunk } from '../../../../electron/media/png/text-chunks.js';
import { insertChunks, makePng } from '../../media/helpers.js';

/** The keys RuinedFooocus' modules/async_worker.py writes. */
const META = {
  Prompt: 'a kitten wizard',
  Negative: 'blurry',
  steps: 12,
  cfg: 1,
  width: 1344,
  height: 768,
  seed: 2446558914,
  sampler_name: 'lcm',
  scheduler: 'exponential',
  base_model_name: 'SDXL 1.0/top5_v10.safetensors',
  base_model_hash: '3DC9',
  loras: [['B3D9', '0.8 - SDXL 1.0/dmd2_sdxl_4step_lora_fp16.safetensors']],
  start_step: 0,
  denoise: null,
  clip_skip: 1,
  software: 'RuinedFooocus',
};

describe('RuinedFooocus reader', () => {
  it('reads its parameters JSON as ruinedfooocus, through the whole read', async () => {
    const png = insertChunks(await makePng(8, 8), [encodeTextChunk('parameters', JSON.stringify(META))]);
    const read = await readImageMetadata(png);
    expect(read.source).toBe('ruinedfooocus');
    expect(read.settings).toEqual({
      prompt: 'a kitten wizard',
      negativePrompt: 'blurry',
      seed: '2446558914',
      steps: 12,
      guidance: 1,
      sampler: 'lcm',
      scheduler: 'exponential',
      model: 'SDXL 1.0/top5_v10.safetensors',
      modelHash: '3DC9',
      width: 1344,
      height: 768,
      loras: [{ name: 'SDXL 1.0/dmd2_sdxl_4step_lora_fp16.safetensors', weight: 0.8, hash: 'B3D9' }],
    });
  });

  it('an empty negative (", ") is none, and the older LoRA text drops its empty slots', () => {
    const older = { ...META, Negative: ', ', loras: '<detail:0.5>,<None:1>,<None:0.5>' };
    const read = readRuinedfooocus(new Map([['parameters', JSON.stringify(older)]]));
    expect(read?.settings.negativePrompt).toBeUndefined();
    expect(read?.settings.loras).toEqual([{ name: 'detail', weight: 0.5 }]);
  });

  it('leaves JSON of other tools alone', () => {
    expect(readRuinedfooocus(new Map([['parameters', '{"Prompt":"a","software":"Fooocus"}']]))).toBeUndefined();
  });
});
