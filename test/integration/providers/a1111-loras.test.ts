import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA1111Provider } from '../../../electron/providers/a1111/index.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { formatWeight } from '../../../electron/providers/lora-text.js';
import { type FakeA1111, startFakeA1111 } from '../../fakes/a1111.js';
import { config, recordingContext, rejectsWith, request, visible } from './helpers.js';

const provider = createA1111Provider({ pollIntervalMs: 25, cancelGraceMs: 1000 });
let fake: FakeA1111;
let cfg: ProviderConfig;
const sd = (overrides: Parameters<typeof request>[0] = {}) => request({ width: 512, height: 512, ...overrides });

beforeEach(async () => {
  fake = await startFakeA1111();
  cfg = config({ baseUrl: fake.url, model: 'v1-5-pruned-emaonly' });
});
afterEach(async () => {
  await fake.close();
});

describe('a1111: LoRAs as <lora:name:weight> in the prompt', () => {
  it('appends one tag per LoRA, weights without float noise, names as A1111 knows them', async () => {
    const loras = [
      { name: 'add_detail', weight: 0.7000000000000001 },
      { name: 'styles/Ink Wash.safetensors', weight: -0.5 },
      { name: 'flat', weight: 1 },
    ];
    expect(provider.capabilities(cfg).loras).toBe(true);
    await provider.generate(sd({ loras }), cfg, recordingContext());
    const sent = fake.generationRequests()[0]!.json as { prompt: string };
    expect(sent.prompt).toBe('a red fox in snow <lora:add_detail:0.7> <lora:Ink Wash:-0.5> <lora:flat:1>');
  });

  it('A1111 names the LoRAs it applied in its infotext (Lora hashes), as a real server does', async () => {
    const out = await provider.generate(sd({ loras: [{ name: 'add_detail', weight: 0.5 }] }), cfg, recordingContext());
    expect((out.info?.infotexts as string[])[0]).toMatch(
      /<lora:add_detail:0\.5>\n.*Lora hashes: "add_detail: 7c6bad76eb54", /s,
    );
  });

  it('image to image carries the tags too', async () => {
    const { sourcePng } = await import('./helpers.js');
    const ctx = Object.assign(recordingContext(), { inputs: { image: sourcePng(64, 48) } });
    await provider.generate(
      sd({
        loras: [{ name: 'add_detail', weight: 0.25 }],
        inputImage: { imageId: '0190a6e2-0000-7000-8000-000000000001' },
      }),
      cfg,
      ctx,
    );
    expect(fake.received[0]!.route).toBe('img2img');
    expect((fake.received[0]!.body as { prompt: string }).prompt).toBe('a red fox in snow <lora:add_detail:0.25>');
  });

  it('without LoRAs the prompt is sent as written', async () => {
    await provider.generate(sd(), cfg, recordingContext());
    expect((fake.generationRequests()[0]!.json as { prompt: string }).prompt).toBe('a red fox in snow');
  });

  it('refuses a name its tag cannot hold, naming the field, before anything is sent', async () => {
    const loras = [
      { name: 'fine', weight: 1 },
      { name: 'a:b', weight: 1 },
    ];
    const error = await rejectsWith(provider.generate(sd({ loras }), cfg, recordingContext()), 'invalid_request');
    expect(visible(error)).toContain('a:b');
    expect(error.details).toMatchObject({ field: 'loras.1.name' });
    expect(() => provider.validate(sd({ loras: [{ name: '<x>', weight: 1 }] }), cfg)).toThrow(/cannot hold/);
    expect(fake.generationRequests()).toHaveLength(0);
  });
});

describe('formatWeight', () => {
  it('prints any weight as the shortest decimal of at most 4 places, read back within rounding', () => {
    fc.assert(
      fc.property(fc.double({ min: -4, max: 4, noNaN: true }), (weight) => {
        const text = formatWeight(weight);
        expect(text).toMatch(/^-?\d+(\.\d{1,4})?$/);
        expect(Math.abs(Number(text) - weight)).toBeLessThanOrEqual(0.00005 + 1e-12);
      }),
    );
    expect(formatWeight(0.1 + 0.2)).toBe('0.3');
    expect(formatWeight(-0)).toBe('0');
  });
});
