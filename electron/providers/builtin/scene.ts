/**
 * Turns a prompt into a scene description for the render worker: palette from colour and theme words, shapes
 * from shape words (or a hash of the words), positions from the seed. Pure and deterministic; the worker only
 * does pixel math on the plain object this returns. The word lists are in scene-words.ts, the colour maths in
 * scene-palette.ts, each shape's placement in scene-layers.ts.
 */
import { layerFor } from './scene-layers.js';
import { hashString, hsl, paletteHues, rng, seed32 } from './scene-palette.js';
import type { Layer, LayerKind, Scene, SceneInput } from './scene-types.js';
import {
  COLOUR_HUES,
  DARK_WORDS,
  DEPTH,
  FALLBACK_KINDS,
  GREY_WORDS,
  LIGHT_WORDS,
  SHAPE_WORDS,
  hueWords,
  words,
} from './scene-words.js';

export type { Layer, LayerKind, Rgb, Scene, SceneInput } from './scene-types.js';
export { hashString, seed32 } from './scene-palette.js';
export { words } from './scene-words.js';

export function buildScene(input: SceneInput): Scene {
  const promptWords = words(input.prompt);
  const negativeWords = words(input.negativePrompt ?? '');
  const negativeSet = new Set(negativeWords);
  const wordHash = hashString(promptWords.join(' '));
  const seed = seed32(input.seed);
  const random = rng(seed ^ wordHash);

  const negativeHues = negativeWords.map((w) => COLOUR_HUES.get(w)).filter((h): h is number => h !== undefined);
  const hues = paletteHues(promptWords, negativeHues, wordHash).map((h) => h + (random() - 0.5) * 10);
  const has = (set: Set<string>) => promptWords.some((w) => set.has(w)) && !negativeWords.some((w) => set.has(w));
  const dark = has(DARK_WORDS);
  const light = has(LIGHT_WORDS);
  const grey = has(GREY_WORDS);
  const shift = (dark ? -0.14 : 0) + (light ? 0.12 : 0);
  const sat = grey ? 0.18 : hueWords(promptWords).length > 0 ? 0.78 : 0.62;
  const guidance = input.guidance ?? 7;

  const [h0, h1, h2] = hues as [number, number, number];
  const skyTop = hsl(h0, sat, 0.2 + shift);
  const skyBottom = hsl(h1, sat * 0.9, 0.62 + shift);
  const cloud = hsl(h2, sat * 0.55, 0.8 + shift * 0.5);
  const accent = hsl(h1 + 8, Math.min(1, sat + 0.15), 0.62 + shift * 0.5);
  const deep = hsl(h2, sat * 0.7, 0.16 + shift * 0.6);
  const highlight = hsl(h0 + 30, Math.min(1, sat + 0.1), 0.74 + shift * 0.4);

  const kinds: Array<{ kind: LayerKind; word: string }> = [];
  for (const w of promptWords) {
    const kind = SHAPE_WORDS.get(w);
    if (kind === undefined || negativeSet.has(w)) continue;
    if (negativeWords.some((n) => SHAPE_WORDS.get(n) === kind)) continue;
    if (!kinds.some((k) => k.kind === kind)) kinds.push({ kind, word: w });
  }
  if (kinds.length === 0) {
    const allowed = FALLBACK_KINDS.filter((k) => !negativeWords.some((n) => SHAPE_WORDS.get(n) === k));
    for (let i = 0; i < 2 && allowed.length > 0; i += 1) {
      const kind = allowed.splice((wordHash >>> (i * 7)) % allowed.length, 1)[0]!;
      kinds.push({ kind, word: promptWords[i] ?? String(i) });
    }
  }

  const colours = { skyTop, skyBottom, accent, deep, highlight };
  const layers: Layer[] = kinds.slice(0, 4).map(({ kind, word }) => layerFor(kind, word, seed, colours));
  layers.sort((a, b) => DEPTH[a.kind] - DEPTH[b.kind]);

  const steps = input.steps ?? 20;
  return {
    seed,
    skyTop,
    skyBottom,
    cloud,
    horizon: 0.55 + random() * 0.2,
    clouds: 0.25 + random() * 0.5,
    warp: 0.6 + random() * 1.6,
    // More steps, more detail: extra noise octaves, within reason.
    octaves: Math.max(2, Math.min(6, Math.round(1 + steps / 8))),
    // Guidance pushes saturation, as a stronger CFG pushes contrast in diffusion models.
    saturation: Math.max(0.4, Math.min(1.6, 0.6 + guidance / 17.5)),
    vignette: 0.25 + random() * 0.2,
    layers,
  };
}
