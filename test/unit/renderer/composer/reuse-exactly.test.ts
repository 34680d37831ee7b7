import { describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../../shared/contract';
import { planBatch, recalledExpansion } from '../../../../renderer/src/composer/composer-batch';
import { DEFAULT_DRAFT } from '../../../../renderer/src/composer/composer';
import { restoreComposer, persistComposer } from '../../../../renderer/src/composer/composer-storage';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, idFor, makeJob } from '../helpers';
import { provider } from '../iterate/iterate-fixtures';

const TWO_LINES = 'a lighthouse at dusk\n{red|blue} sky, film grain';

function detail(prompt: string, seed: number): JobDetail {
  const image = { id: idFor(1000), index: 0, width: 512, height: 512, mime: 'image/png', bytes: 10, seed };
  const summary = makeJob({ provider: 'comfyui', prompt, images: [image] });
  return {
    ...summary,
    request: { provider: 'comfyui', prompt, width: 512, height: 512, count: 1, seed },
    result: { seed, timings: {} },
    cancelRequested: false,
    events: [],
  };
}

function setup() {
  const submitted: Record<string, unknown>[] = [];
  const fake = fakeApi({
    'prompts.history': async () => ({ items: [{ prompt: TWO_LINES, usedAt: 0, uses: 1 }] }),
    'jobs.submit': async (input) => {
      submitted.push(input as Record<string, unknown>);
      return {
        job: { ...makeJob({ id: idFor(900 + submitted.length) }), request: input, cancelRequested: false, events: [] },
        created: true,
      };
    },
  });
  let n = 0;
  // Each press is far from the last, so none is taken for a double click.
  const store = createAppStore({ api: fake.api, makeKey: () => `key-${++n}`, now: () => n * 10_000 });
  store.setState({ providers: [provider('comfyui')] });
  return { store, submitted };
}

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('a recalled prompt is one prompt', () => {
  it('typed, lines and {a|b} expand; recalled, the same text is one prompt with its newline and braces', () => {
    expect(planBatch({ prompt: TWO_LINES, template: '' })).toEqual({
      ok: true,
      prompts: ['a lighthouse at dusk', 'red sky, film grain', 'blue sky, film grain'],
    });
    expect(planBatch({ prompt: TWO_LINES, template: '', promptLiteral: true })).toEqual({
      ok: true,
      prompts: [TWO_LINES],
    });
    expect(planBatch({ prompt: TWO_LINES, template: 'oil painting of {prompt}', promptLiteral: true })).toEqual({
      ok: true,
      prompts: [`oil painting of ${TWO_LINES}`],
    });
    // The hint says what typing it would make instead; nothing for a prompt that is one either way.
    expect(recalledExpansion({ prompt: TWO_LINES, promptLiteral: true })).toBe(3);
    expect(recalledExpansion({ prompt: TWO_LINES, promptLiteral: false })).toBeNull();
    expect(recalledExpansion({ prompt: 'a fox', promptLiteral: true })).toBeNull();
  });

  it('Reuse settings on a two-line prompt submits one job with the newline; editing it makes it typed text again', async () => {
    const { store, submitted } = setup();
    store.getState().reuseSettings(detail(TWO_LINES, 0), idFor(1000));
    expect(store.getState().draft.promptLiteral).toBe(true);
    await store.getState().submit();
    expect(submitted.map((r) => r.prompt)).toEqual([TWO_LINES]);
    store.getState().updateDraft({ prompt: `${TWO_LINES} ` });
    expect(store.getState().draft.promptLiteral).toBe(false);
    await store.getState().submit();
    expect(submitted).toHaveLength(4);
  });

  it('a prompt from history (↑ or the list) is one prompt; ↓ back to what was typed expands again', async () => {
    const { store } = setup();
    store.getState().updateDraft({ prompt: 'x\ny' });
    await store.getState().recallPrompt(1);
    expect(store.getState().draft).toMatchObject({ prompt: TWO_LINES, promptLiteral: true });
    await store.getState().recallPrompt(-1);
    expect(store.getState().draft).toMatchObject({ prompt: 'x\ny', promptLiteral: false });
    store.getState().updateDraft({ prompt: TWO_LINES, promptLiteral: true });
    expect(store.getState().draft.promptLiteral).toBe(true);
  });
});

describe('a reused seed is for one generation', () => {
  it('Reuse settings sends the job’s seed (even 0) once; the next generation is random again', async () => {
    const { store, submitted } = setup();
    store.getState().reuseSettings(detail('a fox', 0), idFor(1000));
    expect(store.getState().draft).toMatchObject({ seed: 0, seedLocked: true, seedOnce: true });
    await store.getState().submit();
    expect(submitted[0]).toMatchObject({ seed: 0 });
    expect(store.getState().draft).toMatchObject({ seedLocked: false, seedOnce: false });
    await store.getState().submit();
    expect(submitted[1]).not.toHaveProperty('seed');
  });

  it('Keep (or typing a seed) fixes it for every later generation', async () => {
    const { store, submitted } = setup();
    store.getState().reuseSettings(detail('a fox', 5), idFor(1000));
    store.getState().updateDraft({ seedOnce: false });
    await store.getState().submit();
    store.getState().updateDraft({ prompt: 'a fox, again' });
    await store.getState().submit();
    expect(submitted.map((r) => r.seed)).toEqual([5, 5]);
  });

  it('after a reload a reused seed is random again; one the person fixed stays fixed', () => {
    const storage = memoryStorage();
    const first = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    const stop = persistComposer(first, storage);
    first.getState().reuseSettings(detail('a fox', 0), idFor(1000));
    stop();
    const reloaded = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    restoreComposer(reloaded, storage);
    expect(reloaded.getState().draft).toMatchObject({ prompt: 'a fox', seedLocked: false, seedOnce: false });

    storage.setItem('atelier.composer.v1', JSON.stringify({ draft: { ...DEFAULT_DRAFT, seed: 9, seedLocked: true } }));
    const again = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    restoreComposer(again, storage);
    expect(again.getState().draft).toMatchObject({ seed: 9, seedLocked: true });
  });
});
