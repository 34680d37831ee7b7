import { describe, expect, it } from 'vitest';
import { createFlingDetector, FLING_SPEED } from '../../../../renderer/src/gallery/fling';

describe('fling detection', () => {
  it('a run of fast scroll events is a fling from its second event', () => {
    const d = createFlingDetector({ top: 0, time: 0 });
    // 400 px a 16 ms frame: 25 px/ms.
    expect(d.sample(400, 16)).toBe(false);
    expect(d.sample(800, 32)).toBe(true);
    expect(d.sample(1200, 48)).toBe(true);
  });

  it('reading speed never is, and slowing down ends it at once', () => {
    const d = createFlingDetector({ top: 0, time: 0 });
    let top = 0;
    for (let t = 16; t < 2000; t += 16) {
      top += 16 * (FLING_SPEED / 2);
      expect(d.sample(top, t)).toBe(false);
    }
    expect(d.sample(top + 4000, 2016)).toBe(false);
    expect(d.sample(top + 8000, 2032)).toBe(true);
    expect(d.sample(top + 8010, 2048)).toBe(false);
  });

  it('a single jump (End, a click on the scrollbar) is not a fling, in either direction', () => {
    const d = createFlingDetector({ top: 50_000, time: 0 });
    expect(d.sample(0, 16)).toBe(false);
    expect(d.sample(0, 600)).toBe(false);
    expect(d.sample(90_000, 616)).toBe(false);
    expect(d.sample(89_000, 1200)).toBe(false);
  });

  it('upward flings count too', () => {
    const d = createFlingDetector({ top: 10_000, time: 0 });
    expect(d.sample(9_500, 16)).toBe(false);
    expect(d.sample(9_000, 32)).toBe(true);
  });
});
