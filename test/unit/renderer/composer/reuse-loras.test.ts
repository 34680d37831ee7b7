import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../../shared/contract';
import { DEFAULT_DRAFT, restoredDraft } from '../../../../renderer/src/composer/composer';
import { restoreComposer } from '../../../../renderer/src/composer/composer-storage';
import { draftLoras } from '../../../../renderer/src/composer/draft-loras';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, idFor, makeJob } from '../helpers';
import { provider } from '../iterate/iterate-fixtures';

const withLoras = (id: string) =>
  provider(id, { capabilities: { ...provider(id).capabilities, loras: true, samplers: ['euler'] } });

function detail(over: Partial<JobDetail> & { request: JobDetail['request'] }): JobDetail {
  const image = { id: idFor(1000), index: 0, width: 512, height: 512, mime: 'image/png', bytes: 10 };
  return {
    ...makeJob({ provider: over.request.provider, prompt: over.request.prompt, images: [image] }),
    cancelRequested: false,
    events: [],
    ...over,
  };
}

function setup() {
  const submitted: Record<string, unknown>[] = [];
  const fake = fakeApi({
    'jobs.submit': async (input) => {
      submitted.push(input as Record<string, unknown>);
      return {
        job: { ...makeJob({ id: idFor(900 + submitted.length) }), request: input, cancelRequested: false, events: [] },
        created: true,
      };
    },
  });
  const store = createAppStore({ api: fake.api, makeKey: () => 'key', now: () => 0 });
  store.setState({ providers: [withLoras('comfyui'), withLoras('a1111')] });
  return { store, submitted };
}

describe('Reuse settings brings LoRAs back', () => {
  it('a job made here: its request’s LoRAs, in order, and Generate sends them again', async () => {
    const { store, submitted } = setup();
    const loras = [
      { name: 'styles/add_detail.safetensors', weight: 0.6 },
      { name: 'ink.safetensors', weight: -1 },
    ];
    store
      .getState()
      .reuseSettings(
        detail({ request: { provider: 'comfyui', prompt: 'a fox', width: 512, height: 512, count: 1, loras } }),
      );
    expect(store.getState().draft.loras).toEqual(loras);
    await store.getState().submit();
    expect(submitted[0]!.loras).toEqual(loras);
  });

  it('an imported image: its metadata’s LoRAs, a weight it did not give is 1', () => {
    const { store } = setup();
    store.getState().reuseSettings(
      detail({
        source: 'a1111',
        request: { provider: 'a1111', prompt: 'a moth', width: 512, height: 512, count: 1 },
        metadata: {
          raw: [],
          problems: [],
          locations: [],
          mode: 'link',
          loras: [{ name: 'add_detail', weight: 0.8, hash: 'abc' }, { name: 'flat' }],
        },
      }),
    );
    expect(store.getState().draft.loras).toEqual([
      { name: 'add_detail', weight: 0.8 },
      { name: 'flat', weight: 1 },
    ]);
  });

  it('a job without LoRAs clears the ones the draft had', () => {
    const { store } = setup();
    store.getState().updateDraft({ loras: [{ name: 'old', weight: 1 }] });
    store
      .getState()
      .reuseSettings(detail({ request: { provider: 'comfyui', prompt: 'a fox', width: 512, height: 512, count: 1 } }));
    expect(store.getState().draft.loras).toEqual([]);
  });
});

describe('a restored draft’s LoRAs', () => {
  function memoryStorage(saved: unknown) {
    const data = new Map<string, string>([['atelier.composer.v1', JSON.stringify(saved)]]);
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
  }

  it('kept when they are LoRAs, none when the saved value is corrupt', () => {
    const kept = [{ name: 'add_detail', weight: 0.5 }];
    const { store } = setup();
    restoreComposer(store, memoryStorage({ draft: { ...DEFAULT_DRAFT, loras: kept } }));
    expect(store.getState().draft.loras).toEqual(kept);
    for (const corrupt of ['add_detail', 42, { name: 'x' }, null]) {
      const fresh = setup().store;
      restoreComposer(fresh, memoryStorage({ draft: { ...DEFAULT_DRAFT, loras: corrupt } }));
      expect(fresh.getState().draft.loras).toEqual([]);
    }
    expect(restoredDraft({ ...DEFAULT_DRAFT, loras: undefined as never }).loras).toEqual([]);
  });

  it('whatever was saved, what is kept is a list a submit accepts', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const loras = draftLoras(raw);
        expect(loras.length).toBeLessThanOrEqual(16);
        for (const lora of loras) {
          expect(lora.name.trim()).toBe(lora.name);
          expect(lora.name.length).toBeGreaterThan(0);
          expect(lora.name.length).toBeLessThanOrEqual(200);
          expect(Math.abs(lora.weight)).toBeLessThanOrEqual(4);
        }
      }),
    );
    expect(draftLoras([{ name: ' a ', weight: 9 }, { name: 'b\u0007' }, { name: 'c', weight: Number.NaN }])).toEqual([
      { name: 'a', weight: 4 },
    ]);
  });
});
