import { describe, expect, it } from 'vitest';
import { readEasydiffusion } from '../../../../electron/library/readers/easydiffusion.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { encodeTextChunk } from '../../../../electron/media/png/text-chunks.js';
import { insertChunks, makePng } from '../../media/helpers.js';

const EXPECTED = {
  prompt: 'a desert oasis',
  negativePrompt: 'cactus',
  seed: '2024',
  steps: 25,
  guidance: 7.5,
  sampler: 'euler_a',
  model: 'C:\\models\\sd-v1-5.ckpt',
  width: 512,
  height: 768,
};

describe('Easy Diffusion, older files', () => {
  it('reads the display-named PNG texts ("Stable Diffusion model", "Guidance Scale"), through the whole read', async () => {
    const texts: Array<[string, string]> = [
      ['Prompt', 'a desert oasis'],
      ['Negative Prompt', 'cactus'],
      ['Seed', '2024'],
      ['Stable Diffusion model', 'C:\\models\\sd-v1-5.ckpt'],
      ['Sampler', 'euler_a'],
      ['Width', '512'],
      ['Height', '768'],
      ['Steps', '25'],
      ['Guidance Scale', '7.5'],
    ];
    const png = insertChunks(
      await makePng(8, 8),
      texts.map(([key, text]) => encodeTextChunk(key, text)),
    );
    const read = await readImageMetadata(png);
    expect(read.source).toBe('easydiffusion');
    expect(read.settings).toEqual(EXPECTED);
  });

  it('and the same names as JSON in a JPEG UserComment', () => {
    const json = JSON.stringify({
      Prompt: 'a desert oasis',
      'Negative Prompt': 'cactus',
      Seed: 2024,
      'Stable Diffusion model': 'C:\\models\\sd-v1-5.ckpt',
      Sampler: 'euler_a',
      Width: 512,
      Height: 768,
      Steps: 25,
      'Guidance Scale': 7.5,
    });
    expect(readEasydiffusion(new Map([['exif:UserComment', json]]))?.settings).toEqual(EXPECTED);
  });

  it('a bare Prompt key without the model is not Easy Diffusion', () => {
    expect(readEasydiffusion(new Map([['Prompt', 'a cat']]))).toBeUndefined();
  });
});
