import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatParameters, parseParameters, quoteValue } from '../../../electron/media/png/a1111-parameters.js';

describe('A1111 parameters text', () => {
  it('writes prompt, negative line and params in A1111 key order', () => {
    const text = formatParameters({
      prompt: 'a red fox\nin snow',
      negativePrompt: 'blurry',
      steps: 20,
      sampler: 'Euler a',
      cfgScale: 7,
      seed: 123,
      width: 512,
      height: 768,
      model: 'v1-5-pruned-emaonly',
    });
    expect(text).toBe(
      'a red fox\nin snow\nNegative prompt: blurry\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 123, Size: 512x768, Model: v1-5-pruned-emaonly',
    );
  });

  it('omits the negative line and unknown fields entirely', () => {
    expect(formatParameters({ prompt: 'cat', seed: 5, width: 64, height: 64, model: 'm' })).toBe(
      'cat\nSeed: 5, Size: 64x64, Model: m',
    );
  });

  it('JSON-quotes values containing a comma, newline or colon', () => {
    expect(quoteValue('plain')).toBe('plain');
    expect(quoteValue('a, b')).toBe('"a, b"');
    expect(quoteValue('x:y')).toBe('"x:y"');
    expect(quoteValue('l1\nl2 "q"')).toBe('"l1\\nl2 \\"q\\""');
    expect(quoteValue('café, ünï')).toBe('"café, ünï"');
  });

  it('parses the A1111 example from the protocol reference', () => {
    const parsed = parseParameters(
      'masterpiece, 1girl\nwith hat\nNegative prompt: lowres,\nbad hands\nSteps: 20, Sampler: DPM++ 2M, Schedule type: Karras, CFG scale: 7, Seed: 1234567890, Size: 512x768, Model hash: 6ce0161689, Model: v1-5-pruned-emaonly, Lora hashes: "add_detail: 7c6bad76eb54", Version: v1.10.1',
    );
    expect(parsed.prompt).toBe('masterpiece, 1girl\nwith hat');
    expect(parsed.negativePrompt).toBe('lowres,\nbad hands');
    expect(parsed).toMatchObject({
      steps: 20,
      sampler: 'DPM++ 2M',
      cfgScale: 7,
      seed: 1234567890,
      width: 512,
      height: 768,
    });
    expect(parsed.model).toBe('v1-5-pruned-emaonly');
    expect(parsed.params['Schedule type']).toBe('Karras');
    expect(parsed.params['Lora hashes']).toBe('add_detail: 7c6bad76eb54');
    expect(parsed.params['Size-1']).toBe('512');
    expect(parsed.params['Version']).toBe('v1.10.1');
  });

  it('treats a last line with fewer than 3 key/values as prompt text', () => {
    const parsed = parseParameters('a poster\nTitle: Hello, World');
    expect(parsed.prompt).toBe('a poster\nTitle: Hello, World');
    expect(parsed.params).toEqual({});
  });

  it('keeps keys like __proto__ and constructor as plain data', () => {
    const parsed = parseParameters('cat\n__proto__: x, constructor: y, Steps: 3, Seed: 4');
    expect(Object.getPrototypeOf(parsed.params)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed.params, '__proto__')).toBe(true);
    expect(parsed.params['constructor']).toBe('y');
    expect(parsed).toMatchObject({ prompt: 'cat', steps: 3, seed: 4 });
  });

  it('round-trips prompts A1111 can represent (lines trimmed, no "Negative prompt:" line)', () => {
    const line = fc
      .string({ unit: 'binary', maxLength: 40 })
      .map((s) => s.replace(/[\r\n]/g, ' ').trim())
      .filter((s) => !s.startsWith('Negative prompt:'));
    const text = fc.array(line, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('\n'));
    const value = fc
      .string({ unit: 'binary', maxLength: 30 })
      .map((s) => s.trim())
      .filter((s) => s !== '');
    fc.assert(
      fc.property(
        text.filter((p) => p.trim() !== '' && !p.includes('\nNegative prompt:')),
        text,
        value,
        (prompt, negative, sampler) => {
          // A1111's own writer strips the whole text, so only trimmed prompts survive unchanged.
          fc.pre(prompt === prompt.trim() && negative === negative.trim());
          fc.pre(!/^\s*$/.test(prompt.split('\n')[0]!));
          const written = formatParameters({
            prompt,
            negativePrompt: negative,
            sampler,
            seed: 1,
            width: 64,
            height: 64,
            model: 'm, "x"',
          });
          const parsed = parseParameters(written);
          expect(parsed.prompt).toBe(
            prompt
              .split('\n')
              .map((l) => l.trim())
              .join('\n'),
          );
          expect(parsed.negativePrompt).toBe(
            negative
              .split('\n')
              .map((l) => l.trim())
              .join('\n'),
          );
          expect(parsed.sampler).toBe(sampler);
          expect(parsed.model).toBe('m, "x"');
          expect(parsed.seed).toBe(1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
