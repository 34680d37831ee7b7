import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { readNovelai } from '../../../../electron/library/readers/novelai.js';
import { baseWebp, webpWith } from '../../../fixtures/images/containers.js';
import { asciiComment, buildExif } from '../../../fixtures/images/tiff-exif.js';

/** A V4.5 Comment: the prompt as a base caption and one caption per character, the negative likewise. */
const V4 = {
  prompt: '2girls, dancing',
  steps: 28,
  height: 1024,
  width: 832,
  scale: 5.0,
  seed: 1702945580,
  noise_schedule: 'karras',
  sampler: 'k_euler_ancestral',
  v4_prompt: {
    caption: {
      base_caption: '2girls, dancing',
      char_captions: [
        { char_caption: 'girl, hatsune miku, ', centers: [{ x: 0.5, y: 0.3 }] },
        { char_caption: '  ', centers: [] },
        { char_caption: 'girl, kagamine rin', centers: [{ x: 0.7, y: 0.7 }] },
      ],
    },
  },
  v4_negative_prompt: { caption: { base_caption: 'lowres', char_captions: [{ char_caption: 'hat' }] } },
  uc: 'old negative',
};

describe('NovelAI reader', () => {
  it('V4 and V4.5: the prompts are the base caption, then one line per character caption', () => {
    const read = readNovelai(
      new Map([
        ['Software', 'NovelAI'],
        ['Description', '2girls, dancing'],
        ['Source', 'NovelAI Diffusion V4.5 4BDE2A90'],
        ['Comment', JSON.stringify(V4)],
      ]),
    );
    expect(read?.settings).toEqual({
      prompt: '2girls, dancing\ngirl, hatsune miku,\ngirl, kagamine rin',
      negativePrompt: 'lowres\nhat',
      seed: '1702945580',
      steps: 28,
      guidance: 5,
      sampler: 'k_euler_ancestral',
      scheduler: 'karras',
      model: 'NovelAI Diffusion V4.5 4BDE2A90',
      width: 832,
      height: 1024,
    });
  });

  it('a WebP download: the PNG texts as JSON in the EXIF UserComment, the model from Software', async () => {
    const userComment = JSON.stringify({
      Comment: JSON.stringify(V4),
      Description: '2girls, dancing',
      Software: 'NovelAI',
    });
    const exif = buildExif({
      Software: 'NovelAI Diffusion V4.5 4BDE2A90',
      ImageDescription: '2girls, dancing',
      UserComment: asciiComment(userComment),
    });
    const read = await readImageMetadata(webpWith(await baseWebp(8, 8), 8, 8, { exif }));
    expect(read.source).toBe('novelai');
    expect(read.settings).toMatchObject({
      prompt: '2girls, dancing\ngirl, hatsune miku,\ngirl, kagamine rin',
      seed: '1702945580',
      model: 'NovelAI Diffusion V4.5 4BDE2A90',
    });
  });

  it('before V4 the Description is the prompt and uc the negative', () => {
    const { v4_prompt: _p, v4_negative_prompt: _n, ...v3 } = V4;
    const read = readNovelai(
      new Map([
        ['Software', 'NovelAI'],
        ['Description', 'a cat'],
        ['Comment', JSON.stringify(v3)],
      ]),
    );
    expect(read?.settings).toMatchObject({ prompt: 'a cat', negativePrompt: 'old negative' });
  });
});

describe('NovelAI EXIF texts', () => {
  it('the ImageDescription loses the NULs NovelAI puts before it (test/fixtures/real/novelai/novelai-full-3char.webp)', async () => {
    const webp = readFileSync(new URL('../../../fixtures/real/novelai/novelai-full-3char.webp', import.meta.url));
    const read = await readImageMetadata(new Uint8Array(webp));
    const description = read.raw.find((r) => r.key === 'exif:ImageDescription')?.text;
    expect(description?.startsWith('2girls, 1boy, dancing')).toBe(true);
  });
});
