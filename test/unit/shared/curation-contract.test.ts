import { describe, expect, it } from 'vitest';
import { BoardImages, CreateBoard, SetRating, TagImages } from '../../../shared/contract.js';

const id = '0190a6e2-0000-7000-8000-000000000001';

describe('curation requests are checked in main before anything runs', () => {
  it('takes either ids or a query, never both or neither', () => {
    expect(SetRating.safeParse({ ids: [id], rating: 3 }).success).toBe(true);
    expect(SetRating.safeParse({ query: { search: 'fox' }, rating: 3 }).success).toBe(true);
    const both = SetRating.safeParse({ ids: [id], query: { search: 'fox' }, rating: 3 });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.message).toMatch(/either ids .* or query/);
    expect(SetRating.safeParse({ rating: 3 }).success).toBe(false);
    expect(BoardImages.safeParse({ boardId: id }).success).toBe(false);
  });

  it('rates 0 to 5 in whole stars, and refuses unknown fields', () => {
    for (const rating of [-1, 6, 2.5, '4'])
      expect(SetRating.safeParse({ ids: [id], rating }).success, String(rating)).toBe(false);
    expect(SetRating.safeParse({ ids: [id], rating: 0 }).success).toBe(true);
    expect(SetRating.safeParse({ ids: [id], rating: 1, extra: true }).success).toBe(false);
    expect(SetRating.safeParse({ ids: ['not-an-id'], rating: 1 }).success).toBe(false);
  });

  it('tidies tag and board names, and refuses empty ones, control characters and an action that names no tag', () => {
    expect(TagImages.parse({ ids: [id], add: ['  two   words '] }).add).toEqual(['two words']);
    expect(TagImages.safeParse({ ids: [id], add: ['   '] }).success).toBe(false);
    expect(TagImages.safeParse({ ids: [id], add: ['bell\u0007'] }).success).toBe(false);
    expect(TagImages.safeParse({ ids: [id] }).success).toBe(false);
    expect(TagImages.safeParse({ ids: [id], add: ['x'.repeat(65)] }).success).toBe(false);
    expect(CreateBoard.safeParse({ name: 'Covers', query: '' }).success).toBe(false);
  });
});
