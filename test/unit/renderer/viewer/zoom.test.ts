import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actualView,
  carryView,
  clampView,
  fitScale,
  fitView,
  imagePoint,
  centredView,
  panBy,
  pinchView,
  scaleLimits,
  zoomAround,
  zoomAt,
  type Size,
  type View,
} from '../../../../renderer/src/viewer/zoom';

const size = fc.record({ width: fc.integer({ min: 1, max: 8192 }), height: fc.integer({ min: 1, max: 8192 }) });
const pane = fc.record({ width: fc.integer({ min: 40, max: 4000 }), height: fc.integer({ min: 40, max: 3000 }) });
const coord = fc.double({ min: -1e5, max: 1e5, noNaN: true });
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

/** The drawn image's box in pane pixels. */
const box = (v: View, image: Size) => ({
  left: v.x,
  top: v.y,
  right: v.x + image.width * v.scale,
  bottom: v.y + image.height * v.scale,
});

describe('fit', () => {
  it('keeps the whole image inside the pane, centred, touching two opposite edges', () => {
    fc.assert(
      fc.property(size, pane, (image, p) => {
        const b = box(fitView(image, p), image);
        expect(b.left).toBeGreaterThanOrEqual(-1e-6);
        expect(b.top).toBeGreaterThanOrEqual(-1e-6);
        expect(b.right).toBeLessThanOrEqual(p.width + 1e-6);
        expect(b.bottom).toBeLessThanOrEqual(p.height + 1e-6);
        expect(close(b.left, p.width - b.right) && close(b.top, p.height - b.bottom)).toBe(true);
        expect(close(b.right - b.left, p.width) || close(b.bottom - b.top, p.height)).toBe(true);
      }),
    );
  });
});

describe('1:1', () => {
  it('is centred on the image’s middle, not pinned to its top-left corner', () => {
    fc.assert(
      fc.property(size, pane, (image, p) => {
        const v = actualView(image, p);
        expect(v.scale).toBe(1);
        const middle = imagePoint(v, { x: p.width / 2, y: p.height / 2 });
        expect(close(middle.x, image.width / 2) && close(middle.y, image.height / 2)).toBe(true);
      }),
    );
    // A 2048² image in a 1000×800 pane: its middle, not its corner, is on screen.
    expect(actualView({ width: 2048, height: 2048 }, { width: 1000, height: 800 })).toEqual({
      scale: 1,
      x: -524,
      y: -624,
    });
  });
});

describe('zoom around a point', () => {
  it('without limits, the image pixel under the cursor stays under the cursor', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        coord,
        coord,
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        coord,
        coord,
        (scale, x, y, next, px, py) => {
          const v = { scale, x, y };
          const before = imagePoint(v, { x: px, y: py });
          const after = imagePoint(zoomAt(v, next, { x: px, y: py }), { x: px, y: py });
          expect(close(before.x, after.x) && close(before.y, after.y)).toBe(true);
        },
      ),
    );
  });

  it('zooming in on an image that already fills the pane keeps the pixel under the cursor exactly there', () => {
    fc.assert(
      fc.property(
        size,
        pane,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 1, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (image, p, t, factor, u, w) => {
          const { max } = scaleLimits(image, p);
          // A scale at which the image covers the pane, with room to zoom in.
          const cover = Math.max(p.width / image.width, p.height / image.height);
          fc.pre(cover * factor <= max);
          const v = clampView({ scale: cover + t * (max / factor - cover), x: -1e9 * u, y: -1e9 * w }, image, p);
          const cursor = { x: u * p.width, y: w * p.height };
          const next = zoomAround(v, factor, cursor, image, p);
          const before = imagePoint(v, cursor);
          const after = imagePoint(next, cursor);
          expect(close(before.x, after.x) && close(before.y, after.y)).toBe(true);
        },
      ),
    );
  });

  it('stays within its limits however far the wheel turns', () => {
    fc.assert(
      fc.property(
        size,
        pane,
        fc.array(fc.double({ min: 0.05, max: 20, noNaN: true }), { maxLength: 30 }),
        (image, p, factors) => {
          const { min, max } = scaleLimits(image, p);
          let v = fitView(image, p);
          for (const f of factors) v = zoomAround(v, f, { x: p.width / 3, y: p.height / 4 }, image, p);
          expect(v.scale).toBeGreaterThanOrEqual(min);
          expect(v.scale).toBeLessThanOrEqual(max);
        },
      ),
    );
  });
});

describe('pinch', () => {
  it('scales by the change in distance and keeps the pixel under the fingers’ middle there, however the gesture is cut into moves', () => {
    fc.assert(
      fc.property(
        size,
        pane,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 1, max: 1.3, noNaN: true }), { minLength: 1, maxLength: 8 }),
        (image, p, u, w, spreads) => {
          const cover = Math.max(p.width / image.width, p.height / image.height);
          const start = centredView(cover, image, p);
          const total = spreads.reduce((a, b) => a * b, 1);
          fc.pre(cover * total <= scaleLimits(image, p).max);
          const mid = { x: u * p.width, y: w * p.height };
          const from: [{ x: number; y: number }, { x: number; y: number }] = [
            { x: mid.x - 20, y: mid.y },
            { x: mid.x + 20, y: mid.y },
          ];
          let view = start;
          let d = 20;
          for (const s of spreads) {
            d *= s;
            view = pinchView(
              start,
              from,
              [
                { x: mid.x - d, y: mid.y },
                { x: mid.x + d, y: mid.y },
              ],
              image,
              p,
            );
          }
          expect(close(view.scale, cover * total)).toBe(true);
          const before = imagePoint(start, mid);
          const after = imagePoint(view, mid);
          expect(
            Math.abs(before.x - after.x) < 1e-6 * image.width + 1e-6 &&
              Math.abs(before.y - after.y) < 1e-6 * image.height + 1e-6,
          ).toBe(true);
        },
      ),
    );
  });
});

describe('pan', () => {
  it('never lets the image leave the pane: a larger image covers it edge to edge, a smaller one stays centred', () => {
    fc.assert(
      fc.property(
        size,
        pane,
        fc.double({ min: 1, max: 8, noNaN: true }),
        fc.array(fc.tuple(coord, coord), { maxLength: 20 }),
        (image, p, zoom, drags) => {
          let v = zoomAround(fitView(image, p), zoom, { x: p.width / 2, y: p.height / 2 }, image, p);
          for (const [dx, dy] of drags) v = panBy(v, dx, dy, image, p);
          const b = box(v, image);
          const drawnW = b.right - b.left;
          const drawnH = b.bottom - b.top;
          if (drawnW >= p.width) expect(b.left <= 1e-6 && b.right >= p.width - 1e-6).toBe(true);
          else expect(close(b.left, p.width - b.right)).toBe(true);
          if (drawnH >= p.height) expect(b.top <= 1e-6 && b.bottom >= p.height - 1e-6).toBe(true);
          else expect(close(b.top, p.height - b.bottom)).toBe(true);
        },
      ),
    );
  });
});

describe('stepping to the next image', () => {
  it('keeps the zoom and the relative point in the middle; a fitted view refits', () => {
    const p = { width: 1000, height: 800 };
    const a = { width: 2048, height: 2048 };
    const zoomed = zoomAround(actualView(a, p), 2, { x: 200, y: 100 }, a, p);
    const carried = carryView(zoomed, false, a, a, p);
    expect(carried).toEqual(zoomed);
    expect(carryView(zoomed, true, a, { width: 512, height: 1024 }, p)).toEqual(
      fitView({ width: 512, height: 1024 }, p),
    );
    expect(fitScale({ width: 512, height: 1024 }, p)).toBe(800 / 1024);
  });
});
