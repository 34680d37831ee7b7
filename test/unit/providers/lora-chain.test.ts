import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultImageWorkflow } from '../../../electron/providers/comfyui/image-graphs.js';
import { withLoraChain } from '../../../electron/providers/comfyui/lora-chain.js';
import { defaultWorkflow } from '../../../electron/providers/comfyui/workflow.js';

const graphs = fc.constantFrom(
  () => defaultWorkflow(),
  () => defaultImageWorkflow({ mask: false, count: 1 }),
  () => defaultImageWorkflow({ mask: true, count: 3 }),
);
const lora = fc.record({
  name: fc.string({ minLength: 1, maxLength: 20 }),
  weight: fc.double({ min: -4, max: 4, noNaN: true }),
});

describe('the LoraLoader chain in the default graphs', () => {
  it('for any LoRAs: one loader each in order, and nothing but the first reads the checkpoint’s MODEL or CLIP', () => {
    fc.assert(
      fc.property(graphs, fc.array(lora, { minLength: 1, maxLength: 16 }), (make, loras) => {
        const before = make();
        const graph = withLoraChain(before, loras);
        const chain = Object.entries(graph).filter(([, n]) => n.class_type === 'LoraLoader');
        expect(chain.map(([, n]) => [n.inputs.lora_name, n.inputs.strength_model, n.inputs.strength_clip])).toEqual(
          loras.map((l) => [l.name, l.weight, l.weight]),
        );
        chain.forEach(([, n], i) => {
          const from = i === 0 ? '4' : chain[i - 1]![0];
          expect([n.inputs.model, n.inputs.clip]).toEqual([
            [from, 0],
            [from, 1],
          ]);
        });
        const last = chain.at(-1)![0];
        const links = Object.entries(graph)
          .filter(([, n]) => n.class_type !== 'LoraLoader')
          .flatMap(([, n]) => Object.values(n.inputs))
          .filter((v): v is [string, number] => Array.isArray(v));
        expect(links.some(([id, out]) => id === '4' && out !== 2)).toBe(false);
        expect(graph['3']!.inputs.model).toEqual([last, 0]);
        // The input graph is not changed, and nothing else in it moved.
        expect(before['3']!.inputs.model).toEqual(['4', 0]);
        expect(Object.keys(graph).length).toBe(Object.keys(before).length + loras.length);
      }),
    );
  });

  it('without LoRAs the graph is the same object', () => {
    const graph = defaultWorkflow();
    expect(withLoraChain(graph, [])).toBe(graph);
  });
});
