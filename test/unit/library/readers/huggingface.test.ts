import { describe, expect, it } from 'vitest';
import { readHuggingface } from '../../../../electron/library/readers/huggingface.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { encodeTextChunk } from '../../../../electron/media/png/text-chunks.js';
import { insertChunks, makePng } from '../../media/helpers.js';

const SPACE = {
  prompt: '1girl, solo',
  negative_prompt: 'bad quality',
  resolution: '832 x 1216',
  guidance_scale: 5.5,
  num_inference_steps: 24,
  seed: 443800072,
  sampler: 'DPM++ 2M Karras',
  Model: 'WAI NSFW illustrious SDXL v16',
  'Model hash': 'BDB5',
  use_upscaler: null,
};

describe('Hugging Face Space reader', () => {
  it("reads a Space's parameters JSON (diffusers' argument names) as huggingface, through the whole read", async () => {
    const png = insertChunks(await makePng(8, 8), [encodeTextChunk('parameters', JSON.stringify(SPACE))]);
    const read = await readImageMetadata(png);
    expect(read.source).toBe('huggingface');
    expect(read.settings).toEqual({
      prompt: '1girl, solo',
      negativePrompt: 'bad quality',
      seed: '443800072',
      steps: 24,
      guidance: 5.5,
      sampler: 'DPM++ 2M Karras',
      model: 'WAI NSFW illustrious SDXL v16',
      modelHash: 'BDB5',
      width: 832,
      height: 1216,
    });
  });

  it('takes width and height when there is no resolution, and names an unreadable step count', () => {
    const { resolution: _, ...rest } = SPACE;
    const read = readHuggingface(
      new Map([['parameters', JSON.stringify({ ...rest, width: 512, height: 640, num_inference_steps: 'x' })]]),
    );
    expect(read?.settings).toMatchObject({ width: 512, height: 640 });
    expect(read?.problems).toEqual(['num_inference_steps: "x" could not be read']);
  });

  it('leaves JSON without num_inference_steps (Fooocus, SwarmUI) to the other readers', () => {
    expect(readHuggingface(new Map([['parameters', '{"prompt":"a","steps":20,"guidance_scale":4}']]))).toBeUndefined();
  });
});
