import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { textOnlyOperations, type ImageSummary, type JobSummary } from '../../../../shared/contract';
import { createMask, stamp } from '../../../../renderer/src/iterate/mask-brush';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, idFor, makeJob } from '../helpers';
import { provider } from './iterate-fixtures';

const IMG = '00000000-0000-7000-8000-0000000000aa';
const MASK = '00000000-0000-7000-8000-0000000000bb';

function image(extra: Partial<ImageSummary> = {}): ImageSummary {
  return { id: IMG, index: 0, width: 768, height: 512, mime: 'image/png', bytes: 10, ...extra };
}

function setup(job: JobSummary, providers = [provider('builtin'), provider('a1111')]) {
  const submitted: Record<string, unknown>[] = [];
  const masks: { imageId: string; png: string }[] = [];
  const fake = fakeApi({
    'jobs.list': async () => ({ items: [job], nextCursor: null }),
    'providers.list': async () => ({ providers }),
    'jobs.get': async () => ({
      ...job,
      request: {
        provider: job.provider,
        prompt: job.prompt,
        width: job.images[0]?.width ?? 768,
        height: job.images[0]?.height ?? 512,
        count: 1,
        seed: 77,
        steps: 25,
      },
      cancelRequested: false,
      events: [],
    }),
    'jobs.submit': async (input) => {
      submitted.push(input as Record<string, unknown>);
      return {
        job: { ...makeJob({ id: idFor(900 + submitted.length) }), request: input, cancelRequested: false, events: [] },
        created: true,
      };
    },
    'images.saveMask': async (input) => {
      masks.push(input as { imageId: string; png: string });
      return { maskId: MASK, width: 768, height: 512, coverage: 0.1 };
    },
  });
  const store = createAppStore({ api: fake.api, makeKey: () => `key-${submitted.length}`, now: () => 0 });
  store.setState({ providers });
  return { store, submitted, masks };
}

describe('working from an image in the store', () => {
  it('Use as input: the next Generate sends the image and the strength set on the slider, at the source’s size', async () => {
    const job = makeJob({ images: [image()], prompt: 'a fox' });
    const { store, submitted } = setup(job);
    await store.getState().loadFirstPage();
    expect(await store.getState().runAction('useAsInput', job.id, IMG)).toBe(true);
    expect(store.getState().workingFrom).toMatchObject({ imageId: IMG, strength: 0.75 });
    store.getState().setInputStrength(0.3);
    store.getState().updateDraft({ prompt: 'a fox at night' });
    expect([store.getState().draft.width, store.getState().draft.height]).toEqual([768, 512]);
    await store.getState().submit();
    expect(submitted[0]).toMatchObject({
      prompt: 'a fox at night',
      width: 768,
      height: 512,
      inputImage: { imageId: IMG, strength: 0.3 },
    });
    // Removed from the strip: the next one is text-to-image again.
    store.getState().clearInput();
    store.getState().updateDraft({ prompt: 'another' });
    await store.getState().submit();
    expect(submitted[1]).not.toHaveProperty('inputImage');
  });

  it('Variations: the source’s settings, no seed, four at once, variationOf the image', async () => {
    const job = makeJob({ images: [image()], prompt: 'a fox', provider: 'a1111' });
    const { store, submitted } = setup(job);
    await store.getState().loadFirstPage();
    expect(await store.getState().runAction('variations', job.id, IMG)).toBe(true);
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      provider: 'a1111',
      prompt: 'a fox',
      steps: 25,
      count: 4,
      variationOf: { imageId: IMG },
    });
    expect(submitted[0]).not.toHaveProperty('seed');
    expect(typeof submitted[0]!.idempotencyKey).toBe('string');
  });

  it('Upscale ×4: one image, the factor, the source’s prompt', async () => {
    const job = makeJob({ images: [image()], prompt: 'a fox' });
    const { store, submitted } = setup(job);
    await store.getState().loadFirstPage();
    await store.getState().runAction('upscale4', job.id, IMG);
    expect(submitted[0]).toMatchObject({
      provider: 'builtin',
      prompt: 'a fox',
      count: 1,
      upscale: { imageId: IMG, factor: 4 },
    });
  });

  it('Repaint saves the painted mask as a PNG of the source’s size, then submits the input and the mask', async () => {
    const job = makeJob({ images: [image()], prompt: 'a fox' });
    const { store, submitted, masks } = setup(job);
    await store.getState().loadFirstPage();
    store.getState().openEditor(job.id, IMG);
    const mask = createMask(768, 512);
    stamp(mask, 100, 100, 20, false);
    expect(await store.getState().repaint(job.id, IMG, mask)).toBe(true);
    expect(masks[0]!.imageId).toBe(IMG);
    const png = Buffer.from(masks[0]!.png, 'base64');
    const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, data[100 * 768 + 100], data[300 * 768 + 600]]).toEqual([768, 512, 255, 0]);
    // The composer's prompt is empty: the source's is used.
    expect(submitted[0]).toMatchObject({
      prompt: 'a fox',
      count: 1,
      inputImage: { imageId: IMG },
      mask: { imageId: MASK },
    });
    expect(store.getState().editing).toBeNull();
  });

  it('an action the provider cannot do is not sent: it says why', async () => {
    const job = makeJob({ images: [image()] });
    const { store, submitted } = setup(job, [
      provider('builtin', {}, textOnlyOperations('Built-in works from text only.')),
    ]);
    await store.getState().loadFirstPage();
    expect(store.getState().supportOf('upscale2', job.id, IMG)).toEqual({
      enabled: false,
      reason: 'Built-in works from text only.',
    });
    expect(await store.getState().runAction('upscale2', job.id, IMG)).toBe(false);
    expect(await store.getState().runAction('useAsInput', job.id, IMG)).toBe(false);
    expect(submitted).toHaveLength(0);
    expect(store.getState().workingFrom).toBeNull();
    expect(store.getState().toasts.at(-1)?.message).toBe('Built-in works from text only.');
  });

  it('an imported image works the same: its variations go to the composer’s provider when its tool is not one here', async () => {
    const job = makeJob({
      images: [image({ width: 1000, height: 1500 })],
      prompt: 'an old painting',
      provider: 'novelai',
      source: 'novelai',
      path: '/pictures/old.png',
    });
    const { store, submitted } = setup(job);
    await store.getState().loadFirstPage();
    expect(store.getState().supportOf('variations', job.id, IMG)).toEqual({ enabled: true });
    expect(await store.getState().runAction('useAsInput', job.id, IMG)).toBe(true);
    expect([store.getState().draft.width, store.getState().draft.height]).toEqual([1000, 1504]);
    expect(await store.getState().runAction('variations', job.id, IMG)).toBe(true);
    expect(submitted[0]).toMatchObject({ provider: 'builtin', count: 4, variationOf: { imageId: IMG } });
  });
});
