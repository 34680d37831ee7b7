import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInstanceHealth } from '../../../electron/scheduler/instance-health.js';

describe('instance health: down instances are probed with backoff', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('probes a down instance after 2 s, 4 s, 8 s … up to the cap, and once it answers it is up and the scheduler is told', async () => {
    let answers = false;
    const probes: number[] = [];
    const onChange = vi.fn();
    const health = createInstanceHealth({
      clock: { now: () => Date.now() },
      backoff: { firstMs: 2_000, maxMs: 16_000 },
    });
    health.connect({
      onChange,
      probe: async (id) => {
        probes.push(Date.now());
        health.observe(id, answers, answers ? 'ok' : 'connection refused');
      },
    });
    health.markDown('comfyui-2', 'connection refused');
    expect(health.view('comfyui-2')).toMatchObject({
      state: 'down',
      since: 1_000_000,
      nextProbeAt: 1_002_000,
      message: 'connection refused',
    });
    // A job failing there while it is down does not restart the backoff.
    await vi.advanceTimersByTimeAsync(3_000);
    health.markDown('comfyui-2', 'still refused');
    expect(health.view('comfyui-2').message).toBe('still refused');
    await vi.advanceTimersByTimeAsync(2_000 + 4_000 + 8_000 + 16_000 + 16_000 - 3_000);
    expect(probes.map((t) => t - 1_000_000)).toEqual([2_000, 6_000, 14_000, 30_000, 46_000]);
    expect(health.isDown('comfyui-2')).toBe(true);
    expect(onChange).not.toHaveBeenCalled();
    answers = true;
    await vi.advanceTimersByTimeAsync(16_000);
    expect(health.view('comfyui-2')).toMatchObject({ state: 'up', since: 1_062_000 });
    expect(health.view('comfyui-2').nextProbeAt).toBeUndefined();
    expect(onChange).toHaveBeenCalledTimes(1);
    // Up: no more probes.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(probes).toHaveLength(6);
  });

  it('a new address makes a down instance unknown again; running jobs and the loaded model are kept per instance', () => {
    let address = 'http://a';
    const health = createInstanceHealth({
      clock: { now: () => Date.now() },
      connection: () => address,
    });
    health.started('a1111-2', 'job-1');
    health.succeeded('a1111-2', 'model.safetensors');
    health.markDown('a1111-2', 'refused');
    expect(health.isDown('a1111-2')).toBe(true);
    address = 'http://b';
    expect(health.isDown('a1111-2')).toBe(false);
    expect(health.view('a1111-2')).toMatchObject({
      state: 'unknown',
      running: ['job-1'],
      loadedModel: 'model.safetensors',
    });
    expect(health.view('a1111')).toEqual({ state: 'unknown', running: [] });
    health.close();
  });
});
