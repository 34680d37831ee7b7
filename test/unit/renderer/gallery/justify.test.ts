import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../../shared/contract';
import {
  COMPACT_ASPECT,
  MAX_ASPECT,
  MIN_ASPECT,
  cardAspect,
  isCompactCard,
} from '../../../../renderer/src/gallery/card-aspect';
import { buildRows, moveVertical } from '../../../../renderer/src/gallery/grid-rows';
import { CARD_GAP } from '../../../../renderer/src/gallery/grid-layout';
import { justifyRange } from '../../../../renderer/src/gallery/justify';
import { publishAspects } from '../../../../renderer/src/gallery/use-card-aspects';

const aspects = fc.array(fc.double({ min: MIN_ASPECT, max: MAX_ASPECT, noNaN: true }), { minLength: 1, maxLength: 80 });
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe('the justified grid', () => {
  it('every row but the last fills the width exactly, keeps each card at its aspect and stays near the target height', () => {
    fc.assert(
      fc.property(
        aspects,
        fc.integer({ min: 320, max: 3000 }),
        fc.integer({ min: 120, max: 480 }),
        (list, width, target) => {
          const rows = justifyRange(0, list.length, { aspectOf: (i) => list[i]!, width, target, gap: CARD_GAP });
          // Every card once, in order.
          expect(rows.map((r) => [r.start, r.end])).toEqual(
            rows.map((r, k) => [k === 0 ? 0 : rows[k - 1]!.end, r.end]),
          );
          expect(rows.at(-1)!.end).toBe(list.length);
          rows.forEach((row, k) => {
            expect(row.widths).toHaveLength(row.end - row.start);
            const used = sum(row.widths) + CARD_GAP * (row.widths.length - 1);
            const full = used === width;
            if (full) {
              expect(row.height).toBeLessThanOrEqual(Math.round(target * 1.5));
            } else {
              // Only the last row may fall short: it keeps the target height and stays inside the width, give or take rounding.
              expect(k).toBe(rows.length - 1);
              expect(row.height).toBe(target);
              expect(used).toBeLessThanOrEqual(width + row.widths.length);
            }
            // A whole-pixel width is within a pixel (plus the height's rounding) of the card's true shape at the row's height.
            row.widths.forEach((w, i) => {
              const aspect = list[row.start + i]!;
              expect(Math.abs(w - aspect * row.height)).toBeLessThanOrEqual(1 + aspect * 0.5 + 1e-9);
            });
          });
        },
      ),
    );
  });

  it('a row never runs much below the target unless one card alone is wider than the grid', () => {
    fc.assert(
      fc.property(
        aspects,
        fc.integer({ min: 600, max: 3000 }),
        fc.integer({ min: 120, max: 240 }),
        (list, width, target) => {
          const rows = justifyRange(0, list.length, { aspectOf: (i) => list[i]!, width, target, gap: CARD_GAP });
          for (const row of rows)
            if (row.end - row.start > 1) expect(row.height).toBeGreaterThanOrEqual(Math.floor(target / 2));
        },
      ),
    );
  });

  it('a section ends its own row, and its last row keeps the target height instead of stretching', () => {
    const labels = ['Today', 'Today', 'Today', 'Yesterday', 'Yesterday'];
    const model = buildRows({
      length: labels.length,
      columns: 1,
      labelOf: (i) => labels[i]!,
      expandedIndex: -1,
      hasMore: false,
      justify: { aspectOf: () => 1, width: 1000, target: 200, gap: CARD_GAP },
    });
    expect(
      model.rows.map((r) =>
        r.kind === 'cards' ? `${r.start}-${r.end}@${r.height}` : r.kind === 'header' ? r.label : r.kind,
      ),
    ).toEqual(['Today', '0-3@200', 'Yesterday', '3-5@200']);
  });

  it('leaves a card for the next row when the row is nearer the target height without it', () => {
    // Four squares fill 818 of 1000 px at 200 px; a panorama after them would squash the row to 150 px.
    const list = [1, 1, 1, 1, 2.5, 1, 1];
    const rows = justifyRange(0, list.length, { aspectOf: (i) => list[i]!, width: 1000, target: 200, gap: CARD_GAP });
    expect(rows[0]).toMatchObject({ start: 0, end: 4, height: 246 });
    expect(rows[0]!.widths).toEqual([246, 245, 246, 245]);
  });

  it('moves up and down to the card under the middle of the one in focus', () => {
    // Row 1: one wide card then two squares; row 2: three squares of the same width.
    const list = [2, 1, 1, 1, 1, 1, 1];
    const model = buildRows({
      length: list.length,
      columns: 1,
      labelOf: null,
      expandedIndex: -1,
      hasMore: false,
      justify: { aspectOf: (i) => list[i]!, width: 412, target: 100, gap: CARD_GAP },
    });
    const cards = model.rows.filter((r) => r.kind === 'cards');
    expect(cards.map((r) => [r.start, r.end])).toEqual([
      [0, 3],
      [3, 7],
    ]);
    expect(moveVertical(model, 0, 1)).toBe(3);
    expect(moveVertical(model, 2, 1)).toBe(6);
    expect(moveVertical(model, 5, -1)).toBe(1);
  });
});

const job = (over: Partial<JobSummary>): JobSummary =>
  ({ id: 'j', status: 'succeeded', width: 512, height: 768, images: [], trashedAt: null, ...over }) as JobSummary;
const image = (width: number, height: number) => ({ id: 'i', width, height }) as JobSummary['images'][number];

describe('a card’s shape', () => {
  it('a running job already has the shape it asked for, and its image keeps it: finishing moves nothing', () => {
    const running = job({ status: 'running' });
    const done = job({ status: 'succeeded', images: [image(1024, 1536)] });
    expect(cardAspect(running, 'active')).toBeCloseTo(512 / 768);
    expect(cardAspect(done, 'active')).toBe(cardAspect(running, 'active'));
  });

  it('a failure without a picture is compact; panoramas are bounded', () => {
    for (const status of ['failed', 'cancelled', 'interrupted'] as const) {
      expect(cardAspect(job({ status }), 'active')).toBe(COMPACT_ASPECT);
      expect(isCompactCard(job({ status }), 'active')).toBe(true);
    }
    expect(isCompactCard(job({ status: 'queued' }), 'active')).toBe(false);
    expect(cardAspect(job({ images: [image(4000, 500)] }), 'active')).toBe(MAX_ASPECT);
    expect(cardAspect(job({ images: [image(100, 4000)] }), 'active')).toBe(MIN_ASPECT);
  });
});

describe('shapes the grid is drawn with', () => {
  const empty = { list: [], byId: new Map<string, number>(), view: 'active' as const };
  const running = job({ id: 'a', status: 'running', width: 768, height: 512 });
  const failed = job({ id: 'a', status: 'failed', width: 768, height: 512 });
  const other = job({ id: 'b', images: [image(512, 512)] });

  it('stay the same list while nothing changes shape, so a favourite never re-packs the rows', () => {
    const first = publishAspects(empty, ['a', 'b'], { a: running, b: other }, 'active', false);
    const favourited = { ...other, images: [{ ...other.images[0]!, favorite: true as const }] };
    expect(publishAspects(first, ['a', 'b'], { a: running, b: favourited }, 'active', false)).toBe(first);
  });

  it('keep a card’s shape while the person is scrolled down, and take the new one back at the top', () => {
    const first = publishAspects(empty, ['a', 'b'], { a: running, b: other }, 'active', false);
    const held = publishAspects(first, ['a', 'b'], { a: failed, b: other }, 'active', true);
    expect(held.list).toEqual([1.5, 1]);
    expect(publishAspects(held, ['a', 'b'], { a: failed, b: other }, 'active', false).list).toEqual([
      COMPACT_ASPECT,
      1,
    ]);
  });
});
