import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import { keyTargets, stepImage, visibleImages, withTags } from '../../../../renderer/src/curation/curation';
import { dateBuckets, dateLabel } from '../../../../renderer/src/gallery/date-sections';
import { buildRows, moveVertical } from '../../../../renderer/src/gallery/grid-rows';
import { keyToCommand, ratingOfKey, type KeyInput } from '../../../../renderer/src/common/keyboard';
import { applySuggestion, errorPlace, moveHighlight } from '../../../../renderer/src/search/suggestions';
import { makeJob } from '../helpers';

const key = (k: string, extra: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...extra,
});

function image(id: string, extra: Partial<ImageSummary> = {}): ImageSummary {
  return { id, index: 0, width: 64, height: 64, mime: 'image/png', bytes: 10, ...extra };
}

describe('date headers', () => {
  // Wednesday 2 December 2026, 15:00 local time.
  const now = new Date(2026, 11, 2, 15, 0).getTime();
  const b = dateBuckets(now);
  const at = (y: number, m: number, d: number, h = 12) => new Date(y, m, d, h).getTime();

  it('names today, yesterday, the rest of this week (from Monday), then each month with its year', () => {
    expect(dateLabel(at(2026, 11, 2, 0), b)).toBe('Today');
    expect(dateLabel(now + 3_600_000, b)).toBe('Today');
    expect(dateLabel(at(2026, 11, 1, 23), b)).toBe('Yesterday');
    expect(dateLabel(at(2026, 10, 30, 0), b)).toBe('This week');
    expect(dateLabel(at(2026, 10, 29, 23), b)).toBe('November 2026');
    expect(dateLabel(at(2026, 10, 1, 0), b)).toBe('November 2026');
    expect(dateLabel(at(2026, 9, 31, 23), b)).toBe('October 2026');
    expect(dateLabel(at(2025, 11, 24), b)).toBe('December 2025');
  });

  it('on a Monday there is no "This week" before yesterday (Sunday belongs to last week)', () => {
    const monday = dateBuckets(new Date(2026, 10, 30, 9).getTime());
    expect(dateLabel(new Date(2026, 10, 29, 20).getTime(), monday)).toBe('Yesterday');
    expect(dateLabel(new Date(2026, 10, 28, 20).getTime(), monday)).toBe('November 2026');
  });

  it('labels never go back to an earlier section along a newest-first history', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 * 86_400_000 }), { minLength: 1, maxLength: 80 }), (ages) => {
        const times = ages.map((a) => now - a).sort((x, y) => y - x);
        const labels = times.map((t) => dateLabel(t, b));
        const seen = new Set<string>();
        for (let i = 0; i < labels.length; i += 1) {
          if (i > 0 && labels[i] !== labels[i - 1]) expect(seen.has(labels[i]!)).toBe(false);
          seen.add(labels[i]!);
        }
      }),
    );
  });
});

describe('grid rows with headers', () => {
  it('starts a new row at each section, one header per section, and finds every card’s row', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        (steps, columns, hasMore) => {
          // Sections as contiguous runs, like dates along a sorted history.
          const sections: number[] = [];
          let s = 0;
          for (const step of steps) sections.push((s += step === 0 ? 1 : 0));
          const labelOf = (i: number) => `S${sections[i]}`;
          const model = buildRows({ length: sections.length, columns, labelOf, expandedIndex: -1, hasMore });
          const headers = model.rows
            .filter((r) => r.kind === 'header')
            .map((r) => (r.kind === 'header' ? r.label : ''));
          expect(headers).toEqual([...new Set(sections.map((x) => `S${x}`))]);
          let covered = 0;
          for (const row of model.rows) {
            if (row.kind !== 'cards') continue;
            expect(row.start).toBe(covered);
            expect(row.end - row.start).toBeLessThanOrEqual(columns);
            for (let i = row.start; i < row.end; i += 1) expect(labelOf(i)).toBe(row.label);
            covered = row.end;
          }
          expect(covered).toBe(sections.length);
          for (let i = 0; i < sections.length; i += 1) {
            const row = model.rows[model.rowOf(i)]!;
            expect(row.kind === 'cards' && row.start <= i && i < row.end).toBe(true);
          }
          expect(model.rows[model.rows.length - 1]?.kind === 'more').toBe(hasMore);
        },
      ),
    );
  });

  it('without headers (another sort) rows are plain chunks, and the strip sits beneath the expanded card’s row', () => {
    const model = buildRows({ length: 10, columns: 4, labelOf: null, expandedIndex: 5, hasMore: false });
    expect(model.rows.map((r) => r.kind)).toEqual(['cards', 'cards', 'strip', 'cards']);
    expect(model.labelAt(0)).toBeNull();
  });

  it('up and down keep the column across a short last row of a section', () => {
    const labels = ['A', 'A', 'A', 'A', 'A', 'B', 'B', 'B', 'B'];
    const model = buildRows({
      length: labels.length,
      columns: 4,
      labelOf: (i) => labels[i]!,
      expandedIndex: -1,
      hasMore: false,
    });
    // Rows: [0..3], [4] (A), [5..8] (B).
    expect(moveVertical(model, 2, 1)).toBe(4);
    expect(moveVertical(model, 4, 1)).toBe(5);
    expect(moveVertical(model, 7, -1)).toBe(4);
    expect(moveVertical(model, 4, -1)).toBe(0);
    expect(moveVertical(model, 1, -1)).toBe(1);
    const plain = buildRows({ length: 8, columns: 4, labelOf: null, expandedIndex: 1, hasMore: true });
    // Over the strip row, in the same column.
    expect(moveVertical(plain, 1, 1)).toBe(5);
    expect(moveVertical(plain, 6, -1)).toBe(2);
  });
});

describe('culling keys', () => {
  it('0–5 rate in the grid and the viewer, never while typing, and Shift+digit is not a rating', () => {
    for (const digit of ['0', '1', '2', '3', '4', '5']) {
      expect(keyToCommand(key(digit), 'grid')).toBe('rate');
      expect(keyToCommand(key(digit), 'viewer')).toBe('rate');
      expect(keyToCommand(key(digit, { inTextField: true }), 'grid')).toBeNull();
      expect(keyToCommand(key(digit), 'other')).toBeNull();
      expect(ratingOfKey(digit)).toBe(Number(digit));
    }
    for (const other of ['6', '9', '!', 'F', '10', '']) expect(ratingOfKey(other)).toBeNull();
    expect(keyToCommand(key('6'), 'grid')).toBeNull();
    expect(keyToCommand(key('3', { ctrlKey: true }), 'grid')).toBeNull();
  });

  it('left and right visit every shown image of every card once, in order, and stop at the ends', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        (cards) => {
          const jobs: JobSummary[] = cards.map((trashed, j) =>
            makeJob({ images: trashed.map((t, i) => image(`j${j}i${i}`, t ? { trashed: true } : {})) }),
          );
          // A job with every image trashed is not in the active grid.
          const shown = jobs.filter((job) => visibleImages(job, 'active').length > 0);
          if (shown.length === 0) return;
          const byId = Object.fromEntries(shown.map((j) => [j.id, j]));
          const order = shown.map((j) => j.id);
          const expected = shown.flatMap((j) => visibleImages(j, 'active').map((i) => i.id));
          let at = { jobId: order[0]!, imageId: null as string | null };
          const visited = [visibleImages(shown[0]!, 'active')[0]!.id];
          for (let n = 0; n < expected.length + 2; n += 1) {
            at = stepImage(order, byId, 'active', at, 1);
            if (at.imageId !== visited[visited.length - 1]) visited.push(at.imageId!);
          }
          expect(visited).toEqual(expected);
          for (let n = 0; n < expected.length + 2; n += 1) at = stepImage(order, byId, 'active', at, -1);
          expect(at.imageId).toBe(expected[0]);
        },
      ),
    );
  });

  it('a key acts on the focused image alone, or on every shown image of the selected cards', () => {
    const a = makeJob({ images: [image('a1'), image('a2', { trashed: true }), image('a3')] });
    const b = makeJob({ images: [image('b1')] });
    const byId = { [a.id]: a, [b.id]: b };
    expect(keyTargets(byId, 'active', [], { jobId: a.id, imageId: 'a3' })).toEqual({
      imageIds: ['a3'],
      jobIds: [a.id],
    });
    expect(keyTargets(byId, 'active', [], { jobId: a.id, imageId: null })).toEqual({
      imageIds: ['a1'],
      jobIds: [a.id],
    });
    expect(keyTargets(byId, 'active', [a.id, b.id], { jobId: b.id, imageId: null })).toEqual({
      imageIds: ['a1', 'a3', 'b1'],
      jobIds: [a.id, b.id],
    });
    // The focus outside the selection: the focus wins.
    expect(keyTargets(byId, 'active', [a.id], { jobId: b.id, imageId: null })).toEqual({
      imageIds: ['b1'],
      jobIds: [b.id],
    });
    // In the trash view the trashed image of a batch shows, the others do not.
    expect(visibleImages(a, 'trash').map((i) => i.id)).toEqual(['a2']);
  });

  it('tags added and removed locally fold case, as the engine does', () => {
    const tagged = withTags(image('x', { tags: ['Sky'] }), ['sky', 'sea'], []);
    expect(tagged.tags).toEqual(['sea', 'Sky']);
    expect(withTags(tagged, [], ['SKY', 'sea']).tags).toBeUndefined();
  });
});

describe('search suggestions', () => {
  it('a choice replaces exactly [from, to) and leaves the caret after it; a value ends its term with one space', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.constantFrom('key' as const, 'value' as const),
        (text, p, q, insert, kind) => {
          const from = p % (text.length + 1);
          const to = from + (q % (text.length - from + 1));
          const result = applySuggestion(text, { from, to, insert, kind });
          const rest = text.slice(to);
          const spacer = kind === 'value' && !/^\s/u.test(rest) ? ' ' : '';
          expect(result.text).toBe(text.slice(0, from) + insert + spacer + rest);
          expect(result.cursor).toBe(from + insert.length + spacer.length);
        },
      ),
    );
    expect(applySuggestion('a mod', { from: 2, to: 5, insert: 'model:', kind: 'key' })).toEqual({
      text: 'a model:',
      cursor: 8,
    });
    expect(applySuggestion('model:sd rating:5', { from: 6, to: 8, insert: 'sdxl_base', kind: 'value' })).toEqual({
      text: 'model:sdxl_base rating:5',
      cursor: 15,
    });
  });

  it('arrow keys wrap around the list', () => {
    expect(moveHighlight(-1, 1, 3)).toBe(0);
    expect(moveHighlight(-1, -1, 3)).toBe(2);
    expect(moveHighlight(2, 1, 3)).toBe(0);
    expect(moveHighlight(0, -1, 3)).toBe(2);
    expect(moveHighlight(0, 1, 0)).toBe(-1);
  });

  it('an error’s place marks the character it names, or the end of the text', () => {
    expect(errorPlace('seed:abc', 5)).toEqual({ before: 'seed:', mark: 'a', after: 'bc' });
    expect(errorPlace('"open', 5)).toEqual({ before: '"open', mark: '', after: '' });
    expect(errorPlace('x', 99)).toEqual({ before: 'x', mark: '', after: '' });
  });
});
