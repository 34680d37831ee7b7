import { describe, expect, it } from 'vitest';
import { createModelCache } from '../../../electron/engine/model-cache.js';
import { ServerModel } from '../../../shared/contract.js';

/** A settings store in memory, as the job store keeps settings (JSON round trip). */
function settings(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  return {
    getSetting: <T>(key: string): T | null => (values.has(key) ? (JSON.parse(values.get(key)!) as T) : null),
    setSetting: (key: string, value: unknown) => void values.set(key, JSON.stringify(value)),
    values,
  };
}

describe('the model cache keeps each server library', () => {
  it('keeps what a listing gave across a restart, cleaned', () => {
    const store = settings();
    createModelCache(store).put('a1111', ['m'], undefined, [
      { kind: 'lora', name: 'add_detail', hash: 'ABCDEF0123', triggerWords: ['sharp', 'sharp', 'bad\u0007'] },
      { kind: 'lora', name: 'add_detail' },
      { kind: 'sampler', name: 'euler' },
      { kind: 'vae', name: '' },
    ]);
    expect(createModelCache(store).get('a1111')?.library).toEqual([
      { kind: 'lora', name: 'add_detail', hash: 'abcdef0123', triggerWords: ['sharp'] },
    ]);
  });

  it('cleans a stored library again on load and bounds its size', () => {
    const hostile = Array.from({ length: 30_000 }, (_, i) => ({
      kind: 'lora',
      name: `lora_${i}`,
      triggerWords: Array.from({ length: 40 }, (_, w) => `${'w'.repeat(90)}${w}`),
    }));
    const store = settings({
      'providerModels.comfyui': { models: [], listedAt: 1, library: [...hostile, { kind: 'x', name: 'y' }, null, 7] },
    });
    const library = createModelCache(store).get('comfyui')!.library!;
    expect(library.length).toBeGreaterThan(100);
    expect(library.length).toBeLessThan(30_000);
    expect(JSON.stringify(library).length).toBeLessThan(3_000_000);
    for (const model of library) expect(ServerModel.safeParse(model).success).toBe(true);
  });
});
