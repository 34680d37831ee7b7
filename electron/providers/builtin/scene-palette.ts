import { type Seed, seedToBigInt } from '../../../shared/seed.js';
import type { Rgb } from './scene-types.js';
import { hueWords } from './scene-words.js';

/** FNV-1a over UTF-16 units, 32-bit. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for placing shapes. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Any 64-bit seed: its high 32 bits folded into its low 32 (the state mulberry32 takes), the same seed the same state.
 */
export function seed32(seed: Seed): number {
  const value = seedToBigInt(seed);
  return Number((value & 0xffffffffn) ^ ((value >> 32n) & 0xffffffffn)) >>> 0;
}

export function hsl(h: number, s: number, l: number): Rgb {
  const light = Math.min(0.97, Math.max(0.03, l));
  const sat = Math.min(1, Math.max(0, s));
  const hue = (((h % 360) + 360) % 360) / 30;
  const a = sat * Math.min(light, 1 - light);
  const f = (n: number) => {
    const k = (n + hue) % 12;
    return light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

function hueDistance(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return Math.min(d, 360 - d);
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function paletteHues(promptWords: string[], negativeHues: number[], wordHash: number): number[] {
  const avoided = (h: number) => negativeHues.some((n) => hueDistance(h, n) < 30);
  let hues = hueWords(promptWords).filter((h) => !avoided(h));
  if (hues.length === 0) {
    let base = wordHash % 360;
    for (let tries = 0; tries < 12 && avoided(base); tries += 1) base = (base + 47) % 360;
    const schemes = [
      [0, 30, -30],
      [0, 180, 20],
      [0, 120, 240],
      [0, 150, 210],
      [0, -40, 25],
    ];
    const scheme = schemes[(wordHash >>> 9) % schemes.length]!;
    hues = scheme.map((o) => base + o).filter((h) => !avoided(h));
    if (hues.length === 0) hues = [base];
  }
  if (hues.length === 1) hues = [hues[0]!, hues[0]! + 18, hues[0]! - 22].filter((h) => !avoided(h));
  if (hues.length === 0) hues = [wordHash % 360];
  while (hues.length < 3) hues.push(hues[hues.length - 1]! + 12);
  return hues;
}
