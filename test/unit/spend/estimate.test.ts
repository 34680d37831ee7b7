import { describe, expect, it } from 'vitest';
import { estimateCost, priceLine } from '../../../electron/spend/estimate.js';
import { KIND_FALLBACK_USD } from '../../../electron/spend/default-prices.js';

const square = { count: 1, width: 1024, height: 1024 };

describe('estimateCost', () => {
  it('prices OpenAI by quality and size, and counts auto as high', () => {
    expect(estimateCost('openai', 'gpt-image-1', { ...square, quality: 'low' }).usd).toBeCloseTo(0.011);
    expect(estimateCost('openai', 'gpt-image-1', { ...square, quality: 'medium', height: 1536 }).usd).toBeCloseTo(
      0.063,
    );
    expect(estimateCost('openai', 'gpt-image-1', { ...square, quality: 'auto' }).usd).toBeCloseTo(0.167);
    expect(estimateCost('openai', 'dall-e-3', { ...square, quality: 'hd', width: 1792 }).usd).toBeCloseTo(0.12);
  });

  it('multiplies the price by the images asked for', () => {
    const one = estimateCost('gemini', 'gemini-2.5-flash-image', square);
    const four = estimateCost('gemini', 'gemini-2.5-flash-image', { ...square, count: 4 });
    expect(one).toMatchObject({
      usd: 0.039,
      source: 'estimated',
      basis: 'default',
      key: 'gemini/gemini-2.5-flash-image',
    });
    expect(four.usd).toBeCloseTo(0.156);
  });

  it('prices FLUX.2 per started megapixel and Gemini 4K at its own price', () => {
    expect(estimateCost('bfl', 'flux-2-pro', square).usd).toBeCloseTo(0.03);
    expect(estimateCost('bfl', 'flux-2-pro', { ...square, width: 2048, height: 1536 }).usd).toBeCloseTo(0.09);
    expect(estimateCost('gemini', 'gemini-3-pro-image-preview', { ...square, width: 4096 }).usd).toBeCloseTo(0.24);
  });

  it("uses the kind's default model when the request names none", () => {
    expect(estimateCost('bfl', undefined, square)).toMatchObject({ key: 'bfl/flux-2-pro', usd: 0.03 });
  });

  it("the person's price per image wins over the table", () => {
    const prices = { 'bfl/flux-2-pro': 0.05 };
    expect(estimateCost('bfl', 'flux-2-pro', { ...square, count: 2 }, prices)).toMatchObject({
      usd: 0.1,
      basis: 'yours',
    });
  });

  it("an unknown model costs the kind's default, with a note saying so", () => {
    const estimate = estimateCost('fal', 'someone/new-model', { ...square, count: 2 });
    expect(estimate.basis).toBe('kind-default');
    expect(estimate.usd).toBeCloseTo(KIND_FALLBACK_USD.fal * 2);
    expect(estimate.note).toMatch(/No price is known for “someone\/new-model”.*Settings → Spend/);
  });

  it('free kinds cost nothing', () => {
    expect(estimateCost('comfyui', 'sdxl.safetensors', square)).toMatchObject({ usd: 0, basis: 'free' });
    expect(estimateCost('builtin', undefined, square).usd).toBe(0);
  });

  it("never takes a price from Object's prototype, and ignores a stored price that is not a number", () => {
    const prices = JSON.parse('{"openai/constructor": "cheap", "fal/x": -1}') as Record<string, number>;
    expect(estimateCost('openai', 'constructor', square, prices).basis).toBe('kind-default');
    expect(estimateCost('fal', 'x', square, prices).basis).toBe('kind-default');
    expect(estimateCost('openai', 'toString', square, {}).basis).toBe('kind-default');
  });
});

describe('priceLine', () => {
  it("shows the person's price beside the list price", () => {
    expect(priceLine('bfl', 'flux-2-pro', { 'bfl/flux-2-pro': 0.04 })).toEqual({
      usdPerImage: 0.04,
      defaultUsd: 0.03,
      yours: true,
      note: 'per megapixel',
    });
    expect(priceLine('fal', 'unknown/x', {})).toMatchObject({ defaultUsd: null, yours: false, usdPerImage: 0.08 });
  });
});
