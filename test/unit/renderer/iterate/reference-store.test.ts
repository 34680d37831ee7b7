import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, idFor, makeJob } from '../helpers';
import { provider } from './iterate-fixtures';

const image = (n: number): ImageSummary => ({
  id: idFor(500 + n),
  index: 0,
  width: 1024,
  height: 1024,
  mime: 'image/png',
  bytes: 10,
});

// Gemini's flash image takes 3, its pro model 14; OpenAI takes none.
const gemini = provider('gemini', {
  kind: 'gemini',
  models: ['flash', 'pro'],
  capabilitiesByModel: {
    flash: { ...provider('x').capabilities, maxCount: 1, maxReferenceImages: 3 },
    pro: { ...provider('x').capabilities, maxCount: 1, maxReferenceImages: 14 },
  },
});

function setup(jobs: JobSummary[]) {
  const submitted: Record<string, unknown>[] = [];
  const fake = fakeApi({
    'jobs.list': async () => ({ items: jobs, nextCursor: null }),
    'jobs.submit': async (input) => {
      submitted.push(input as Record<string, unknown>);
      return {
        job: { ...makeJob({ id: idFor(900 + submitted.length) }), request: input, cancelRequested: false, events: [] },
        created: true,
      };
    },
  });
  const store = createAppStore({ api: fake.api, makeKey: () => `key-${submitted.length}`, now: () => 0 });
  store.setState({ providers: [provider('builtin'), provider('openai'), gemini] });
  return { store, submitted };
}

describe('reference images in the store', () => {
  it('added from three images and one removed, Generate sends the rest in the order chosen; the draft keeps them', async () => {
    const jobs = [1, 2, 3].map((n) => makeJob({ images: [image(n)] }));
    const { store, submitted } = setup(jobs);
    await store.getState().loadFirstPage();
    store.getState().chooseProvider('gemini');
    store.getState().updateDraft({ model: 'pro', prompt: 'the same cat, now in a garden' });
    for (const n of [3, 1, 2])
      expect(await store.getState().runAction('addReference', jobs[n - 1]!.id, image(n).id)).toBe(true);
    // Each add says so in one toast that the next replaces: three adds, one "Added as reference 3".
    const added = store.getState().toasts.filter((t) => t.message.startsWith('Added as reference'));
    expect(added.map((t) => t.message)).toEqual(['Added as reference 3 in the composer.']);
    // The same image again is refused, with the reason as a toast.
    expect(await store.getState().runAction('addReference', jobs[0]!.id, image(1).id)).toBe(false);
    expect(store.getState().references).toHaveLength(3);
    store.getState().removeReference(image(1).id);
    await store.getState().submit();
    expect(submitted[0]).toMatchObject({
      provider: 'gemini',
      model: 'pro',
      referenceImages: [{ imageId: image(3).id }, { imageId: image(2).id }],
    });
    expect(store.getState().references.map((r) => r.imageId)).toEqual([image(3).id, image(2).id]);
    store.getState().clearReferences();
    await store.getState().submit();
    expect(submitted[1]).not.toHaveProperty('referenceImages');
  });

  it('a model that takes none gets no references (they stay for the next model); one that takes 3 gets the first 3', async () => {
    const jobs = [1, 2, 3, 4].map((n) => makeJob({ images: [image(n)] }));
    const { store, submitted } = setup(jobs);
    await store.getState().loadFirstPage();
    store.getState().chooseProvider('openai');
    store.getState().updateDraft({ prompt: 'a cat' });
    for (const n of [1, 2, 3, 4]) store.getState().addReference(jobs[n - 1]!.id, image(n).id);
    await store.getState().submit();
    expect(submitted[0]).not.toHaveProperty('referenceImages');
    expect(store.getState().references).toHaveLength(4);
    store.getState().chooseProvider('gemini');
    store.getState().updateDraft({ model: 'flash', prompt: 'a cat' });
    await store.getState().submit();
    expect(submitted[1]!.referenceImages).toEqual([1, 2, 3].map((n) => ({ imageId: image(n).id })));
  });

  it('the engine’s refusal of the references shows until the references change', async () => {
    const jobs = [makeJob({ images: [image(1)] })];
    const { store } = setup(jobs);
    await store.getState().loadFirstPage();
    store.getState().addReference(jobs[0]!.id, image(1).id);
    store.setState({ fieldErrors: { referenceImages: 'A reference image is no longer in the library.' } });
    store.getState().removeReference(image(1).id);
    expect(store.getState().fieldErrors).not.toHaveProperty('referenceImages');
  });
});
