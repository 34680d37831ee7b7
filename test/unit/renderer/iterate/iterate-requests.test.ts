import { describe, expect, it } from 'vitest';
import { GenerateRequest, operationOf, textOnlyOperations, type StoredRequest } from '../../../../shared/contract';
import { ALL, provider } from './iterate-fixtures';
import {
  actionOfCommand,
  actionSupport,
  fitSize,
  inpaintRequest,
  supportFor,
  upscaleRequest,
  variationCount,
  variationRequest,
  withInputImage,
} from '../../../../renderer/src/iterate/iterate';
import { keyToCommand, type KeyInput } from '../../../../renderer/src/common/keyboard';

const IMG7 = '00000000-0000-7000-8000-000000000007';
const IMG3 = '00000000-0000-7000-8000-000000000003';
const source: StoredRequest = {
  provider: 'a1111',
  model: 'sdxl',
  prompt: 'a red fox',
  negativePrompt: 'blurry',
  width: 768,
  height: 512,
  count: 2,
  seed: 4242,
  steps: 30,
  guidance: 7,
  sampler: 'DPM++ 2M',
  scheduler: 'karras',
};

const key = (k: string, extra: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...extra,
});

describe('requests for working from an image', () => {
  it('use as input adds the image and its strength to what the composer sends, and nothing without one', () => {
    const base = { provider: 'builtin', prompt: 'p', width: 512, height: 512, count: 1 };
    const request = withInputImage(base, { imageId: 'img-1', jobId: 'j', strength: 0.4, width: 512, height: 512 });
    expect(request.inputImage).toEqual({ imageId: 'img-1', strength: 0.4 });
    expect(operationOf(request)).toEqual({ operation: 'img2img', parentImageId: 'img-1' });
    expect(withInputImage(base, null)).toEqual(base);
  });

  it('variations keep every setting of the source, leave the seed out, make N and name the source', () => {
    const request = variationRequest({ ...source, inputImage: { imageId: 'older' } }, IMG7, provider('a1111'), 4);
    expect(request).toEqual({
      provider: 'a1111',
      model: 'sdxl',
      prompt: 'a red fox',
      negativePrompt: 'blurry',
      width: 768,
      height: 512,
      count: 4,
      steps: 30,
      guidance: 7,
      sampler: 'DPM++ 2M',
      scheduler: 'karras',
      variationOf: { imageId: IMG7 },
    });
    expect(operationOf(request)).toEqual({ operation: 'variation', parentImageId: IMG7 });
    expect(GenerateRequest.safeParse(request).success).toBe(true);
  });

  it('variations of an image whose provider is off run on the composer’s, at a size it takes', () => {
    const small = provider('comfyui', {
      models: ['other'],
      capabilities: { ...provider('x').capabilities, sizes: { min: 64, max: 512, multipleOf: 64, presets: [] } },
    });
    const request = variationRequest(source, IMG7, small, 4);
    expect([request.provider, request.width, request.height, request.model]).toEqual(['comfyui', 512, 320, undefined]);
  });

  it('variations count: the composer’s count when raised, else four, within what the provider makes', () => {
    expect(variationCount(1, provider('a').capabilities)).toBe(4);
    expect(variationCount(6, provider('a').capabilities)).toBe(6);
    expect(variationCount(6, { ...provider('a').capabilities, maxCount: 2 })).toBe(2);
  });

  it('upscale: one image, the factor, the source’s prompt, a valid request', () => {
    const request = upscaleRequest({ prompt: 'a red fox' }, { id: IMG3, width: 640, height: 448 }, 4, 'builtin');
    expect(request).toEqual({
      provider: 'builtin',
      prompt: 'a red fox',
      width: 640,
      height: 448,
      count: 1,
      upscale: { imageId: IMG3, factor: 4 },
    });
    expect(operationOf(request)).toEqual({ operation: 'upscale', parentImageId: IMG3 });
    expect(
      GenerateRequest.safeParse(upscaleRequest({ prompt: '' }, { id: IMG3, width: 640, height: 448 }, 2, 'builtin'))
        .success,
    ).toBe(true);
  });

  it('a masked edit takes the composer’s prompt, else the source’s, one image, the input and the mask', () => {
    const base = {
      provider: 'builtin',
      prompt: '  ',
      width: 512,
      height: 512,
      count: 3,
      seed: 9,
      variationOf: { imageId: 'x' },
    };
    const request = inpaintRequest(base, { imageId: 'img-1', prompt: 'a red fox' }, 'mask-1', 0.75);
    expect(request).toEqual({
      provider: 'builtin',
      prompt: 'a red fox',
      width: 512,
      height: 512,
      count: 1,
      inputImage: { imageId: 'img-1', strength: 0.75 },
      mask: { imageId: 'mask-1' },
    });
    expect(operationOf(request)).toEqual({ operation: 'inpaint', parentImageId: 'img-1' });
    expect(
      inpaintRequest({ ...base, prompt: 'a blue fox' }, { imageId: 'img-1', prompt: 'a red fox' }, 'mask-1', 0.75)
        .prompt,
    ).toBe('a blue fox');
  });

  it('the composer takes the source’s size, snapped to the provider (fixed sizes: the nearest shape)', () => {
    expect(fitSize(770, 514, provider('a').capabilities)).toEqual([768, 512]);
    expect(fitSize(4096, 2048, provider('a').capabilities)).toEqual([2048, 1024]);
    const fixed = {
      ...provider('a').capabilities,
      sizes: {
        min: 1024,
        max: 1792,
        multipleOf: 1,
        presets: [],
        fixed: [
          [1024, 1024],
          [1792, 1024],
          [1024, 1792],
        ] as [number, number][],
      },
    };
    expect(fitSize(900, 500, fixed)).toEqual([1792, 1024]);
  });
});

describe('which actions a provider can do, and why not', () => {
  const image = { thumbPending: undefined };
  it('a text-only provider disables image-to-image, edit and upscale with its own reason, not variations', () => {
    const textOnly = provider('builtin', {}, textOnlyOperations('Built-in works from text only.'));
    for (const action of ['useAsInput', 'edit', 'upscale2', 'upscale4'] as const)
      expect(actionSupport(action, textOnly, image)).toEqual({
        enabled: false,
        reason: 'Built-in works from text only.',
      });
    expect(actionSupport('variations', textOnly, image)).toEqual({ enabled: true });
  });

  it('one operation off: only its button is disabled', () => {
    const p = provider(
      'a1111',
      {},
      {
        ...ALL,
        img2img: { supported: true, reason: 'img2img with denoising_strength.' },
        upscale: { supported: false, reason: 'This server has no upscalers.' },
      },
    );
    // A supported operation's own words become the button's note.
    expect(actionSupport('useAsInput', p, image)).toEqual({ enabled: true, note: 'img2img with denoising_strength.' });
    expect(actionSupport('edit', p, image).enabled).toBe(true);
    expect(actionSupport('upscale2', p, image)).toEqual({ enabled: false, reason: 'This server has no upscalers.' });
  });

  it("follows the composer's model where a model can do less than the provider's default (OpenAI's dall-e-3)", () => {
    const cannot = { supported: false, reason: 'dall-e-3 makes images from text only.' };
    const openai = provider('openai', {
      operationsByModel: { 'dall-e-3': { img2img: cannot, inpaint: cannot, upscale: cannot } },
    });
    const job = { provider: 'openai', status: 'succeeded' };
    expect(
      supportFor('useAsInput', {
        providers: [openai],
        composerProvider: 'openai',
        composerModel: 'gpt-image-1',
        job,
        image,
      }).enabled,
    ).toBe(true);
    expect(
      supportFor('useAsInput', {
        providers: [openai],
        composerProvider: 'openai',
        composerModel: 'dall-e-3',
        job,
        image,
      }),
    ).toEqual({ enabled: false, reason: cannot.reason });
    expect(actionSupport('edit', openai, image, 'dall-e-3')).toEqual({ enabled: false, reason: cannot.reason });
  });

  it('a provider turned off, none at all, or no finished image each say so', () => {
    expect(actionSupport('useAsInput', provider('a1111', { enabled: false }), image).reason).toMatch(/turned off/);
    expect(actionSupport('useAsInput', undefined, image).reason).toMatch(/Turn on a provider/);
    expect(
      supportFor('useAsInput', {
        providers: [provider('builtin')],
        composerProvider: 'builtin',
        job: { provider: 'builtin', status: 'failed' },
        image: undefined,
      }).reason,
    ).toMatch(/no finished image/);
  });

  it('variations follow the source’s provider when it is on; image operations follow the composer’s; any:<kind> finds its kind', () => {
    const providers = [provider('builtin', {}, textOnlyOperations('text only')), provider('comfyui')];
    const job = { provider: 'comfyui', status: 'succeeded' };
    expect(supportFor('useAsInput', { providers, composerProvider: 'builtin', job, image }).enabled).toBe(false);
    expect(supportFor('useAsInput', { providers, composerProvider: 'any:comfyui', job, image }).enabled).toBe(true);
    expect(supportFor('variations', { providers, composerProvider: 'builtin', job, image }).enabled).toBe(true);
  });

  it('I, E, V, U and Shift+U are the keys in the grid and the viewer, not in a text field, and Ctrl+I still imports', () => {
    expect(actionOfCommand(keyToCommand(key('i'), 'viewer'), false)).toBe('useAsInput');
    expect(actionOfCommand(keyToCommand(key('e'), 'grid'), false)).toBe('edit');
    expect(actionOfCommand(keyToCommand(key('V'), 'grid'), false)).toBe('variations');
    expect(actionOfCommand(keyToCommand(key('u'), 'viewer'), false)).toBe('upscale2');
    expect(actionOfCommand(keyToCommand(key('U', { shiftKey: true }), 'viewer'), true)).toBe('upscale4');
    expect(keyToCommand(key('i', { inTextField: true }), 'viewer')).toBeNull();
    expect(keyToCommand(key('i', { ctrlKey: true }), 'grid')).toBe('import');
    expect(keyToCommand(key('v'), 'composer')).toBeNull();
  });
});
