/** Frame intervals from requestAnimationFrame, summarised as a person feels them. */
export interface FrameStats {
  frames: number;
  /** 1000 / the median interval. */
  medianFps: number;
  /** 1000 / the 95th percentile interval: the fps of the slowest 5% of frames. */
  p5Fps: number;
  /** 1000 / the 99th percentile interval. */
  worst1Fps: number;
  /** Share of intervals longer than 1.5 frames at 60 Hz. */
  dropped: number;
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function frameStats(intervals: readonly number[]): FrameStats {
  return {
    frames: intervals.length,
    medianFps: 1000 / percentile(intervals, 50),
    p5Fps: 1000 / percentile(intervals, 95),
    worst1Fps: 1000 / percentile(intervals, 99),
    dropped: intervals.filter((d) => d > (1000 / 60) * 1.5).length / Math.max(1, intervals.length),
  };
}

export const formatFrames = (s: FrameStats): string =>
  `median ${s.medianFps.toFixed(1)} fps, p5 ${s.p5Fps.toFixed(1)}, worst 1% ${s.worst1Fps.toFixed(1)} (${(s.dropped * 100).toFixed(1)}% dropped, n=${s.frames})`;
