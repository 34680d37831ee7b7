import { asCount, asNumber, asText, newFill, put } from './fields.js';
import type { Pass } from './types.js';

/** Any of these keys means the infotext's `Denoising strength` is the hires fix's, not an image-to-image one. */
const HIRES_KEYS = ['Hires upscale', 'Hires resize-1', 'Hires upscaler', 'Hires steps', 'Hires scale', 'Hires size'];

export function hasHires(params: ReadonlyMap<string, string>): boolean {
  return HIRES_KEYS.some((key) => params.has(key));
}

/** "1536x1536" (SD.Next `Hires size`), or the width and height A1111 writes as `Hires resize-1`/`-2`. */
function hiresSize(params: ReadonlyMap<string, string>, width?: number, height?: number): [number, number] | undefined {
  const size = /^(\d+)x(\d+)$/.exec((params.get('Hires size') ?? '').trim());
  const w = asCount(size?.[1] ?? params.get('Hires resize-1'));
  const h = asCount(size?.[2] ?? params.get('Hires resize-2'));
  if (w !== undefined && h !== undefined) return [w, h];
  // A1111 processing.py: the hires size is the first pass's times the scale, truncated.
  const scale = asNumber(params.get('Hires upscale') ?? params.get('Hires scale'));
  if (scale === undefined || width === undefined || height === undefined) return undefined;
  return [Math.trunc(width * scale), Math.trunc(height * scale)];
}

function hiresPass(params: ReadonlyMap<string, string>, problems: string[], width?: number, height?: number): Pass {
  const fill = newFill(problems);
  put(fill, 'denoise', params.get('Denoising strength'), asNumber, 'Denoising strength');
  put(fill, 'steps', params.get('Hires steps'), asCount, 'Hires steps');
  put(fill, 'guidance', params.get('Hires CFG Scale'), asNumber, 'Hires CFG Scale');
  put(fill, 'sampler', params.get('Hires sampler'), asText, 'Hires sampler');
  put(fill, 'model', params.get('Hires checkpoint'), asText, 'Hires checkpoint');
  put(fill, 'prompt', params.get('Hires prompt'), asText, 'Hires prompt');
  put(fill, 'negativePrompt', params.get('Hires negative prompt'), asText, 'Hires negative prompt');
  const size = hiresSize(params, width, height);
  if (size !== undefined) [fill.settings.width, fill.settings.height] = size;
  const upscaler = params.get('Hires upscaler');
  return {
    role: 'hires',
    classType: upscaler === undefined ? 'Hires fix' : `Hires fix: ${upscaler}`,
    settings: fill.settings,
  };
}

/** ADetailer's first detailer (`ADetailer model`, `ADetailer denoising strength`, `ADetailer prompt`, …). */
function detailerPass(params: ReadonlyMap<string, string>, problems: string[]): Pass {
  const fill = newFill(problems);
  put(fill, 'denoise', params.get('ADetailer denoising strength'), asNumber, 'ADetailer denoising strength');
  put(fill, 'steps', params.get('ADetailer steps'), asCount, 'ADetailer steps');
  put(fill, 'guidance', params.get('ADetailer CFG scale'), asNumber, 'ADetailer CFG scale');
  put(fill, 'prompt', params.get('ADetailer prompt'), asText, 'ADetailer prompt');
  put(fill, 'negativePrompt', params.get('ADetailer negative prompt'), asText, 'ADetailer negative prompt');
  return {
    role: 'detailer',
    classType: `ADetailer: ${params.get('ADetailer model') ?? ''}`.trim(),
    settings: fill.settings,
  };
}

/**
 * The passes an A1111 infotext records after the first one, in the order A1111 runs them: hires fix, then ADetailer.
 * Fields that do not parse are added to `problems`.
 */
export function a1111Passes(
  params: ReadonlyMap<string, string>,
  problems: string[],
  width?: number,
  height?: number,
): Pass[] {
  const passes: Pass[] = [];
  if (hasHires(params)) passes.push(hiresPass(params, problems, width, height));
  if (params.has('ADetailer model')) passes.push(detailerPass(params, problems));
  return passes;
}
