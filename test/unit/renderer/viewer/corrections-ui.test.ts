import { describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../../shared/contract';
import { createAppStore } from '../../../../renderer/src/store/store';
import {
  changedFields,
  formValues,
  isCorrected,
  rowText,
  settingsView,
} from '../../../../renderer/src/viewer/corrections';
import { fakeApi, makeJob } from '../helpers';

function imported(corrections?: JobDetail['corrections']): JobDetail {
  const summary = makeJob({ provider: 'a1111', prompt: 'a moth', source: 'a1111' });
  return {
    ...summary,
    request: {
      provider: 'a1111',
      prompt: 'a moth',
      negativePrompt: 'dust',
      model: 'sd15',
      seed: 5,
      steps: 30,
      sampler: 'Euler a',
      width: 64,
      height: 48,
      count: 1,
    },
    metadata: { model: 'sd15', raw: [], problems: [], locations: [], mode: 'link' },
    ...(corrections === undefined ? {} : { corrections }),
    cancelRequested: false,
    events: [],
  };
}

describe('Details shows the corrected value and what the file says', () => {
  it('each row: the effective value, the file’s, and whether it was corrected (size is width and height)', () => {
    const view = settingsView(imported({ steps: 24, height: 64 }));
    expect([rowText(view.effective, 'steps'), rowText(view.file, 'steps')]).toEqual(['24', '30']);
    expect([rowText(view.effective, 'size'), rowText(view.file, 'size')]).toEqual(['64 × 64', '64 × 48']);
    expect(['steps', 'size', 'seed', 'prompt'].map((r) => isCorrected(view, r as 'steps'))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('a correction form sends only what the person changed; an emptied number is no value, an emptied negative is', () => {
    const before = formValues(settingsView(imported()).effective);
    expect(changedFields(before, { ...before })).toEqual({});
    expect(changedFields(before, { ...before, steps: ' 24 ', seed: '18446744073709551615', model: 'sdxl ' })).toEqual({
      steps: 24,
      seed: '18446744073709551615',
      model: 'sdxl',
    });
    expect(changedFields(before, { ...before, steps: '', negativePrompt: '' })).toEqual({ negativePrompt: '' });
    expect(changedFields(before, { ...before, guidance: 'lots' })).toEqual({ guidance: 'lots' });
  });
});

describe('Reuse settings sends the corrected settings on', () => {
  it('the composer gets the corrected prompt, steps and seed, not what was misread', () => {
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    const job = imported({ prompt: 'a luna moth', steps: 24, seed: 99 });
    store.getState().reuseSettings(job, job.images[0]?.id);
    expect(store.getState().draft).toMatchObject({ prompt: 'a luna moth', steps: 24, seed: 99, seedLocked: true });
  });

  it('corrections and notes go to their channels, and a refusal is shown', async () => {
    const fake = fakeApi({
      'jobs.correct': async () => {
        throw new Error('Steps must be at most 150.');
      },
      'jobs.revertCorrections': async () => ({ corrections: {} }),
      'images.setNote': async () => ({ note: null }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    const id = '0190a6e2-0000-7000-8000-000000000001';
    expect(await store.getState().correctSettings(id, { steps: 999 })).toBe(false);
    expect(
      store
        .getState()
        .toasts.map((t) => t.message)
        .join(),
    ).toContain('Steps must be at most 150.');
    expect(await store.getState().revertCorrections(id, ['steps'])).toBe(true);
    expect(await store.getState().saveNote(id, 'keep')).toBe(true);
    expect(fake.calls.filter((c) => c.channel !== 'library.imports')).toEqual([
      { channel: 'jobs.correct', input: { jobId: id, set: { steps: 999 } } },
      { channel: 'jobs.revertCorrections', input: { jobId: id, fields: ['steps'] } },
      { channel: 'images.setNote', input: { imageId: id, text: 'keep' } },
    ]);
  });
});
