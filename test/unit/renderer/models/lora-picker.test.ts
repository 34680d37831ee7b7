import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addLora,
  clampWeight,
  loraChoices,
  missingOnServers,
  removeLora,
  setLoraWeight,
  targetServers,
  withTriggerWords,
} from '../../../../renderer/src/models/lora-picker';
import { MAX_LORAS } from '../../../../renderer/src/common/contract-constants';
import { libraryModel, server } from './fixtures';

const A = server('a1111', 'Studio A1111', 'a1111', ['juggernautXL.safetensors']);
const B = server('a1111-2', 'Laptop A1111', 'a1111', ['juggernautXL.safetensors', 'dreamshaper.safetensors']);
const LIBRARY = [
  libraryModel({
    name: 'juggernautXL',
    kind: 'checkpoint',
    servers: [{ provider: 'a1111', name: 'juggernautXL.safetensors' }],
  }),
  libraryModel({ name: 'detail', triggerWords: ['intricate'], servers: [{ provider: 'a1111-2', name: 'detail' }] }),
  libraryModel({
    name: 'ghibli',
    baseModel: 'sdxl',
    servers: [
      { provider: 'a1111', name: 'styles/ghibli' },
      { provider: 'a1111-2', name: 'ghibli' },
    ],
  }),
  libraryModel({ name: 'old_lora', servers: [] }),
];

describe('the LoRA picker’s list', () => {
  it('holds only LoRAs, those on the chosen server first, the others marked not on it, each with the name it sends', () => {
    const choices = loraChoices(LIBRARY, [A], '');
    expect(choices.map((c) => [c.model.name, c.onServer, c.sendName])).toEqual([
      ['ghibli', true, 'styles/ghibli'],
      ['detail', false, 'detail'],
      ['old_lora', false, 'old_lora'],
    ]);
  });

  it('searches name, base model and trigger words', () => {
    expect(loraChoices(LIBRARY, [A], 'INTRICATE').map((c) => c.model.name)).toEqual(['detail']);
    expect(loraChoices(LIBRARY, [A], 'sdxl').map((c) => c.model.name)).toEqual(['ghibli']);
  });

  it('for any:<kind>, a LoRA is on the target only when every server of it has it', () => {
    const servers = targetServers('any:a1111', [A, B, server('builtin', 'Built-in', 'builtin')]);
    expect(servers.map((s) => s.id)).toEqual(['a1111', 'a1111-2']);
    expect(loraChoices(LIBRARY, servers, '').map((c) => [c.model.name, c.onServer])).toEqual([
      ['ghibli', true],
      ['detail', false],
      ['old_lora', false],
    ]);
  });
});

describe('picked LoRAs', () => {
  it('are added at weight 1 at the end, once each, up to the cap; removed by place; order kept', () => {
    let loras = addLora([], 'a');
    loras = addLora(loras, 'b');
    loras = addLora(loras, 'a');
    expect(loras).toEqual([
      { name: 'a', weight: 1 },
      { name: 'b', weight: 1 },
    ]);
    loras = addLora(loras, 'c');
    expect(removeLora(loras, 1).map((l) => l.name)).toEqual(['a', 'c']);
    const full = Array.from({ length: MAX_LORAS }, (_, i) => ({ name: `l${i}`, weight: 1 }));
    expect(addLora(full, 'one more')).toEqual(full);
  });

  it('take a weight set by slider or typed, held to −4…4 in hundredths, the rest untouched', () => {
    const loras = [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 1 },
    ];
    expect(setLoraWeight(loras, 1, 0.6)).toEqual([
      { name: 'a', weight: 1 },
      { name: 'b', weight: 0.6 },
    ]);
    expect(clampWeight(0.1 + 0.2)).toBe(0.3);
    expect(clampWeight(9)).toBe(4);
    expect(clampWeight(-7)).toBe(-4);
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (w) => {
        const out = clampWeight(w);
        expect(out).toBeGreaterThanOrEqual(-4);
        expect(out).toBeLessThanOrEqual(4);
        expect(Math.round(out * 100) / 100).toBe(out);
      }),
    );
  });

  it('offer their trigger words to the prompt: those it lacks, after a comma', () => {
    expect(withTriggerWords('a castle', ['ghibli', 'soft light'])).toBe('a castle, ghibli, soft light');
    expect(withTriggerWords('a castle, Ghibli,', ['ghibli', 'soft light'])).toBe('a castle, Ghibli, soft light');
    expect(withTriggerWords('', ['ghibli'])).toBe('ghibli');
    expect(withTriggerWords('ghibli', ['ghibli'])).toBe('ghibli');
  });
});

describe('what the chosen server lacks, named before anything is sent', () => {
  const draft = (model: string, loras: string[]) => ({ model, loras: loras.map((name) => ({ name, weight: 1 })) });

  it('names a LoRA the server does not have, and one no connected server has', () => {
    expect(missingOnServers(draft('', ['styles/ghibli', 'detail', 'old_lora']), [A], LIBRARY, true)).toEqual([
      'LoRA “detail” is not on Studio A1111.',
      'LoRA “old_lora” is not on Studio A1111.',
    ]);
    expect(missingOnServers(draft('', ['ghibli']), [B], LIBRARY, true)).toEqual([]);
  });

  it('names a model the server’s own list lacks', () => {
    expect(missingOnServers(draft('dreamshaper.safetensors', []), [A], LIBRARY, true)).toEqual([
      'Model “dreamshaper.safetensors” is not on Studio A1111.',
    ]);
    expect(missingOnServers(draft('dreamshaper.safetensors', []), [A, B], LIBRARY, true)).toEqual([
      'Model “dreamshaper.safetensors” is not on Studio A1111.',
    ]);
    expect(missingOnServers(draft('juggernautXL.safetensors', []), [A, B], LIBRARY, true)).toEqual([]);
  });

  it('claims nothing it cannot know: LoRAs before the library loads or when not sent; hosted models', () => {
    expect(missingOnServers(draft('', ['detail']), [A], null, true)).toEqual([]);
    expect(missingOnServers(draft('', ['detail']), [A], LIBRARY, false)).toEqual([]);
    const hosted = server('fal', 'fal.ai', 'fal', ['fal-ai/flux/dev'], false);
    expect(missingOnServers(draft('fal-ai/any-typed', []), [hosted], LIBRARY, false)).toEqual([]);
    // A server that lists nothing yet has not said what it lacks.
    expect(missingOnServers(draft('x', []), [server('c', 'ComfyUI', 'comfyui', [])], LIBRARY, true)).toEqual([]);
  });
});
