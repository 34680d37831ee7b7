import type { Page } from 'playwright-core';

export interface FrameRun {
  fps: number;
  /** Share of frames longer than 1.5 frames at 60 Hz. */
  dropped: number;
  frames: number;
  totalMs: number;
}

/**
 * Scrolls the grid back and forth `step` px a frame for `ms` and samples every frame with requestAnimationFrame.
 * A string, not a function: tsx would wrap named inner functions in a helper the page does not have.
 */
export async function scrollFrames(page: Page, ms: number, step: number): Promise<FrameRun> {
  const frames = (await page.evaluate(`(async () => {
    const el = document.querySelector('.grid-scroll');
    const frames = [];
    let last = performance.now();
    const end = last + ${ms};
    let dir = 1;
    await new Promise((resolve) => {
      function tick(t) {
        frames.push(t - last);
        last = t;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) dir = -1;
        else if (el.scrollTop <= 0) dir = 1;
        el.scrollTop += dir * ${step};
        if (t >= end) resolve();
        else requestAnimationFrame(tick);
      }
      requestAnimationFrame(tick);
    });
    return frames;
  })()`)) as number[];
  const durations = frames.slice(1);
  const totalMs = durations.reduce((x, y) => x + y, 0);
  return {
    fps: (durations.length / totalMs) * 1000,
    dropped: durations.filter((d) => d > (1000 / 60) * 1.5).length / Math.max(1, durations.length),
    frames: durations.length,
    totalMs,
  };
}
