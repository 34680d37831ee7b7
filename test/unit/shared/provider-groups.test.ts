import { describe, expect, it } from 'vitest';
import { groupByWhereItRuns, providerGroup } from '../../../shared/providers/groups.js';
import { PROVIDER_KINDS } from '../../../shared/contract.js';

describe('where each provider kind runs', () => {
  it('puts the local engines on this computer, the APIs under Hosted and RunPod under Rented GPU', () => {
    const kinds = ['builtin', 'comfyui', 'a1111', 'openai', 'gemini', 'bfl', 'fal', 'replicate', 'stability', 'runpod'];
    expect(Object.fromEntries(kinds.map((k) => [k, providerGroup(k)]))).toEqual({
      builtin: 'local',
      comfyui: 'local',
      a1111: 'local',
      openai: 'hosted',
      gemini: 'hosted',
      bfl: 'hosted',
      fal: 'hosted',
      replicate: 'hosted',
      stability: 'hosted',
      runpod: 'rented',
    });
  });

  it('places every kind the contract knows, and a kind it does not know yet still shows (with the hosted ones)', () => {
    for (const kind of PROVIDER_KINDS) expect(['local', 'hosted', 'rented']).toContain(providerGroup(kind));
    expect(providerGroup('someday')).toBe('hosted');
    expect(providerGroup('__proto__')).toBe('hosted');
  });

  it('groups what the settings contain, in order, instances beside their kind, and leaves empty groups out', () => {
    const items = [
      { id: 'builtin', kind: 'builtin' },
      { id: 'openai', kind: 'openai' },
      { id: 'comfyui', kind: 'comfyui' },
      { id: 'comfyui-2', kind: 'comfyui' },
    ];
    expect(groupByWhereItRuns(items).map((g) => [g.title, g.items.map((i) => i.id)])).toEqual([
      ['On this computer', ['builtin', 'comfyui', 'comfyui-2']],
      ['Hosted', ['openai']],
    ]);
  });
});
