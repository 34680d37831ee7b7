import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import { createMask, stamp } from '../../../../renderer/src/iterate/mask-brush';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, idFor, makeJob } from '../helpers';
import { provider } from './iterate-fixtures';

const IMG = '00000000-0000-7000-8000-0000000000aa';
const MASK = '00000000-0000-7000-8000-0000000000bb';
const SOURCE_PROMPT = 'a harbour at night\n{lanterns|fog}';

function setup(job: JobSummary) {
  const submitted: Record<string, unknown>[] = [];
  const fake = fakeApi({
    'jobs.list': async () => ({ items: [job], nextCursor: null }),
    'jobs.submit': async (input) => {
      submitted.push(input as Record<string, unknown>);
      return {
        job: { ...makeJob({ id: idFor(900 + submitted.length) }), request: input, cancelRequested: false, events: [] },
        created: true,
      };
    },
    'images.saveMask': async () => ({ maskId: MASK, width: 768, height: 512, coverage: 0.1 }),
  });
  let n = 0;
  const store = createAppStore({ api: fake.api, makeKey: () => `key-${++n}`, now: () => n * 10_000 });
  store.setState({ providers: [provider('builtin')] });
  return { store, submitted };
}

function image(): ImageSummary {
  return { id: IMG, index: 0, width: 768, height: 512, mime: 'image/png', bytes: 10 };
}

describe('the prompt an iteration starts from', () => {
  it('Use as input replaces an unrelated composer prompt with the source’s, sent as one prompt', async () => {
    const job = makeJob({ images: [image()], prompt: SOURCE_PROMPT });
    const { store, submitted } = setup(job);
    await store.getState().loadFirstPage();
    store.getState().updateDraft({ prompt: 'an unrelated cat' });
    await store.getState().runAction('useAsInput', job.id, IMG);
    expect(store.getState().draft).toMatchObject({ prompt: SOURCE_PROMPT, promptLiteral: true });
    await store.getState().submit();
    expect(submitted.map((r) => r.prompt)).toEqual([SOURCE_PROMPT]);
    expect(submitted[0]).toMatchObject({ inputImage: { imageId: IMG } });
  });

  it('Repaint sends the prompt typed in the mask editor, as written, over the composer’s and the source’s', async () => {
    const job = makeJob({ images: [image()], prompt: 'a fox' });
    const { store, submitted } = setup(job);
    await store.getState().loadFirstPage();
    store.getState().updateDraft({ prompt: 'the composer’s prompt' });
    const mask = createMask(768, 512);
    stamp(mask, 100, 100, 20, false);
    expect(await store.getState().repaint(job.id, IMG, mask, 0.6, 'a red scarf\n{wool|silk}')).toBe(true);
    expect(submitted[0]).toMatchObject({ prompt: 'a red scarf\n{wool|silk}', mask: { imageId: MASK } });
    // Emptied in the editor: the source's prompt.
    expect(await store.getState().repaint(job.id, IMG, mask, 0.6, '  ')).toBe(true);
    expect(submitted[1]).toMatchObject({ prompt: 'a fox' });
  });
});
