import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropTarget, moveInOrder, targetOf, type QueueMove } from '../../../../renderer/src/queue/queue-order';

const items = (ids: string[]) => ids.map((id) => ({ id }));
const ids = (list: { id: string }[]) => list.map((item) => item.id);
/** What the engine does with a reorder: the optimistic view must match it. */
const apply = (order: string[], id: string, before: string | null) => ids(moveInOrder(items(order), [id], before));

describe('queue order', () => {
  const order = ['a', 'b', 'c', 'd'];

  it('moves one place up and down, to the top and to the end, as reorders the engine takes', () => {
    expect(targetOf(order, 'c', 'up')).toEqual({ before: 'b' });
    expect(targetOf(order, 'b', 'down')).toEqual({ before: 'd' });
    expect(targetOf(order, 'c', 'down')).toEqual({ before: null });
    expect(targetOf(order, 'c', 'top')).toEqual({ before: 'a' });
    expect(targetOf(order, 'b', 'end')).toEqual({ before: null });
    expect(apply(order, 'c', 'b')).toEqual(['a', 'c', 'b', 'd']);
    expect(apply(order, 'b', 'd')).toEqual(['a', 'c', 'b', 'd']);
    expect(apply(order, 'd', 'a')).toEqual(['d', 'a', 'b', 'c']);
    expect(apply(order, 'a', null)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('sends nothing for a move that changes nothing (the first up or to the top, the last down or to the end)', () => {
    expect(targetOf(order, 'a', 'up')).toBeNull();
    expect(targetOf(order, 'a', 'top')).toBeNull();
    expect(targetOf(order, 'd', 'down')).toBeNull();
    expect(targetOf(order, 'd', 'end')).toBeNull();
    expect(targetOf(order, 'x', 'up')).toBeNull();
  });

  it('a dropped row takes the place of the row it lands on, from above or below', () => {
    expect(apply(order, 'd', dropTarget(order, 'd', 'b')!.before)).toEqual(['a', 'd', 'b', 'c']);
    expect(apply(order, 'a', dropTarget(order, 'a', 'c')!.before)).toEqual(['b', 'c', 'a', 'd']);
    expect(apply(order, 'a', dropTarget(order, 'a', 'd')!.before)).toEqual(['b', 'c', 'd', 'a']);
    expect(dropTarget(order, 'b', 'b')).toBeNull();
  });

  it('every move lands the job where it says and keeps the others in their order', () => {
    const moves: QueueMove[] = ['up', 'down', 'top', 'end'];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.nat(), fc.constantFrom(...moves), (n, pick, move) => {
        const list = Array.from({ length: n }, (_, i) => `j${i}`);
        const id = list[pick % n]!;
        const i = list.indexOf(id);
        const target = targetOf(list, id, move);
        const after = target === null ? list : apply(list, id, target.before);
        const expected = { up: Math.max(0, i - 1), down: Math.min(n - 1, i + 1), top: 0, end: n - 1 }[move];
        expect(after.indexOf(id)).toBe(expected);
        expect(after.filter((x) => x !== id)).toEqual(list.filter((x) => x !== id));
      }),
    );
  });
});
