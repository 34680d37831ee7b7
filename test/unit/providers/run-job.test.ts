import { describe, expect, it } from 'vitest';
import { type ProviderHooks, runJob } from '../../../electron/providers/skeleton/run-job.js';
import type { ProviderOutput } from '../../../electron/providers/types.js';

const output: ProviderOutput = { images: [] };

function recorder(overrides: Partial<ProviderHooks<string, string, string>> = {}) {
  const calls: string[] = [];
  const hooks: ProviderHooks<string, string, string> = {
    connect: async () => (calls.push('connect'), 'conn'),
    submit: async (c) => (calls.push(`submit:${c}`), 'sub'),
    await: async (s, c) => (calls.push(`await:${s}:${c}`), 'done'),
    collect: async (f, s, c) => (calls.push(`collect:${f}:${s}:${c}`), output),
    close: () => void calls.push('close'),
    ...overrides,
  };
  return { calls, hooks };
}

describe('runJob (electron/providers/skeleton/run-job.ts)', () => {
  it('runs connect → submit → await → collect, then close', async () => {
    const { calls, hooks } = recorder();
    await expect(runJob(hooks)).resolves.toBe(output);
    expect(calls).toEqual(['connect', 'submit:conn', 'await:sub:conn', 'collect:done:sub:conn', 'close']);
  });

  it('maps a thrown error through fail and still closes', async () => {
    const { calls, hooks } = recorder({
      submit: async () => {
        throw new Error('boom');
      },
      fail: (error) => new Error(`mapped ${(error as Error).message}`),
    });
    await expect(runJob(hooks)).rejects.toThrow('mapped boom');
    expect(calls).toEqual(['connect', 'close']);
  });

  it('stops through cancel when the signal aborts while awaiting, and ends with its error', async () => {
    const controller = new AbortController();
    const { calls, hooks } = recorder({
      await: () => new Promise<string>(() => controller.abort()),
      cancel: {
        signal: controller.signal,
        stop: async (s) => (calls.push(`stop:${s}`), new Error('cancelled')),
      },
    });
    await expect(runJob(hooks)).rejects.toThrow('cancelled');
    expect(calls).toEqual(['connect', 'submit:conn', 'stop:sub', 'close']);
  });

  it('keeps a result that is already there when the signal has aborted too', async () => {
    const controller = new AbortController();
    controller.abort();
    const finished = Promise.resolve('done');
    await finished;
    const { calls, hooks } = recorder({
      await: () => finished,
      cancel: { signal: controller.signal, stop: async () => (calls.push('stop'), new Error('cancelled')) },
    });
    await expect(runJob(hooks)).resolves.toBe(output);
    expect(calls).not.toContain('stop');
  });
});
