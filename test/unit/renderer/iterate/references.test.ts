import { describe, expect, it } from 'vitest';
import { MAX_REFERENCE_IMAGES } from '../../../../shared/contract';
import { keyToCommand } from '../../../../renderer/src/common/keyboard';
import { actionOfCommand, supportFor } from '../../../../renderer/src/iterate/iterate';
import {
  addReference,
  planReferences,
  referenceCount,
  removeReference,
  withReferences,
  type ReferencePick,
} from '../../../../renderer/src/iterate/references';
import { idFor } from '../helpers';
import { provider } from './iterate-fixtures';

const pick = (n: number): ReferencePick => ({ imageId: idFor(100 + n), jobId: idFor(n) });
const picks = (n: number) => Array.from({ length: n }, (_, i) => pick(i + 1));
const base = { provider: 'gemini', prompt: 'the same cat in a garden', width: 1024, height: 1024, count: 1 };

describe('the composer’s reference list', () => {
  it('adds at the end in the order chosen; the same image twice or a fifteenth is refused and the list kept', () => {
    let list: readonly ReferencePick[] = [];
    for (const p of [pick(2), pick(1)]) list = addReference(list, p).list;
    expect(list.map((r) => r.imageId)).toEqual([idFor(102), idFor(101)]);
    expect(addReference(list, pick(2))).toEqual({ list, outcome: 'already' });
    const full = picks(MAX_REFERENCE_IMAGES);
    expect(addReference(full, pick(99))).toEqual({ list: full, outcome: 'full' });
    expect(removeReference(list, idFor(102)).map((r) => r.imageId)).toEqual([idFor(101)]);
  });

  it('a model that takes 3 is sent the first 3 in order; the rest are named as not sent', () => {
    const plan = planReferences(picks(5), { maxReferenceImages: 3 }, { kind: 'gemini', hasInput: false });
    expect(plan.sent.map((r) => r.imageId)).toEqual([idFor(101), idFor(102), idFor(103)]);
    expect(plan.held).toHaveLength(2);
    expect(plan.note).toBe('This model takes 3: the last 2 are not sent.');
    expect(referenceCount(plan, 5)).toBe('5 of 3');
    expect(withReferences(base, plan).referenceImages).toEqual([
      { imageId: idFor(101) },
      { imageId: idFor(102) },
      { imageId: idFor(103) },
    ]);
  });

  it('a model that takes none keeps them all, sends none, leaves the field out and says so', () => {
    for (const caps of [undefined, {}, { maxReferenceImages: 0 }]) {
      const plan = planReferences(picks(2), caps, { kind: 'openai', hasInput: false });
      expect(plan.sent).toEqual([]);
      expect(plan.held).toHaveLength(2);
      expect(plan.note).toMatch(/^This model takes no reference images: they stay here and are not sent\./);
      expect(withReferences(base, plan)).not.toHaveProperty('referenceImages');
      expect(referenceCount(plan, 2)).toBe('2, none sent');
    }
  });

  it('FLUX.2’s eight images include the input image: with one, seven references are sent', () => {
    const withInput = planReferences(picks(8), { maxReferenceImages: 8 }, { kind: 'bfl', hasInput: true });
    expect([withInput.takes, withInput.sent.length, withInput.held.length]).toEqual([7, 7, 1]);
    expect(withInput.note).toBe(
      'This model takes 7 (the input image takes one of its places): the last one is not sent.',
    );
    const textOnly = planReferences(picks(8), { maxReferenceImages: 8 }, { kind: 'bfl', hasInput: false });
    expect([textOnly.sent.length, textOnly.note]).toEqual([8, null]);
    // Gemini sends its input image apart from the references: all 14 still go.
    const gemini = planReferences(picks(14), { maxReferenceImages: 14 }, { kind: 'gemini', hasInput: true });
    expect([gemini.sent.length, gemini.note]).toEqual([14, null]);
  });
});

describe('Add as reference', () => {
  const context = (references: string[]) => ({
    providers: [provider('builtin')],
    composerProvider: 'builtin',
    job: { provider: 'builtin', status: 'succeeded' },
    image: { id: idFor(101) },
    references,
  });

  it('works on any finished image whatever the model; one already there or a full list says why', () => {
    expect(supportFor('addReference', context([])).enabled).toBe(true);
    expect(supportFor('addReference', { ...context([]), providers: [] }).enabled).toBe(true);
    expect(supportFor('addReference', context([idFor(101)]))).toMatchObject({
      enabled: false,
      reason: 'Already among the composer’s references.',
    });
    const full = Array.from({ length: MAX_REFERENCE_IMAGES }, (_, i) => idFor(200 + i));
    expect(supportFor('addReference', context(full)).reason).toMatch(/at most 14 references/);
    expect(supportFor('addReference', { ...context([]), job: { provider: 'builtin', status: 'failed' } }).enabled).toBe(
      false,
    );
  });

  it('Shift+R adds the focused image in the grid and the viewer; plain R still retries; in a text field R is typed', () => {
    const key = (k: string, shiftKey: boolean, inTextField = false) => ({
      key: k,
      shiftKey,
      inTextField,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
    });
    expect(keyToCommand(key('R', true), 'viewer')).toBe('addReference');
    expect(keyToCommand(key('R', true), 'grid')).toBe('addReference');
    expect(keyToCommand(key('r', false), 'grid')).toBe('retry');
    expect(keyToCommand(key('R', true), 'composer')).toBeNull();
    expect(keyToCommand(key('R', true, true), 'viewer')).toBeNull();
    expect(actionOfCommand('addReference', true)).toBe('addReference');
  });
});
