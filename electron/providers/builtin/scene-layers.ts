import { hashString, mix, rng } from './scene-palette.js';
import type { Layer, LayerKind, Rgb } from './scene-types.js';

/** The scene's colours that shape layers are painted with. */
export interface LayerColours {
  skyTop: Rgb;
  skyBottom: Rgb;
  accent: Rgb;
  deep: Rgb;
  highlight: Rgb;
}

/** One shape layer, placed by a stream of its own (the seed and its word): another word leaves it where it was. */
export function layerFor(kind: LayerKind, word: string, seed: number, colours: LayerColours): Layer {
  const { skyTop, skyBottom, accent, deep, highlight } = colours;
  const r = rng(seed ^ hashString(word) ^ 0x9e3779b9);
  const salt = Math.floor(r() * 1e6);
  switch (kind) {
    case 'disc':
      return {
        kind,
        x: 0.2 + r() * 0.6,
        y: 0.2 + r() * 0.35,
        r: 0.08 + r() * 0.12,
        color: accent,
        glow: 0.5 + r() * 0.8,
      };
    case 'rings':
      return {
        kind,
        x: 0.3 + r() * 0.4,
        y: 0.3 + r() * 0.4,
        spacing: 0.04 + r() * 0.06,
        width: 0.2 + r() * 0.3,
        color: highlight,
        alpha: 0.35 + r() * 0.3,
      };
    case 'stripes':
      return { kind, angle: r() * Math.PI, freq: 8 + r() * 22, color: highlight, alpha: 0.18 + r() * 0.2 };
    case 'orbs':
      return {
        kind,
        alpha: 0.55,
        orbs: Array.from({ length: 10 + Math.floor(r() * 14) }, () => ({
          x: r(),
          y: r() * 0.85,
          r: 0.008 + r() * r() * 0.07,
          color: mix(accent, highlight, r()),
        })),
      };
    case 'ridges':
      return {
        kind,
        base: 0.55 + r() * 0.15,
        amp: 0.12 + r() * 0.18,
        freq: 1.5 + r() * 3,
        count: 3,
        color: deep,
        haze: skyBottom,
        salt,
        spiky: word === 'forest' || word === 'trees',
      };
    case 'skyline':
      return {
        kind,
        base: 0.78 + r() * 0.1,
        cols: 10 + Math.floor(r() * 18),
        maxHeight: 0.25 + r() * 0.3,
        color: deep,
        light: highlight,
        salt,
      };
    case 'waves':
      return {
        kind,
        level: 0.68 + r() * 0.12,
        amp: 0.006 + r() * 0.012,
        freq: 18 + r() * 30,
        color: mix(deep, skyTop, 0.4),
        highlight: mix(skyBottom, accent, 0.4),
        salt,
      };
  }
}
