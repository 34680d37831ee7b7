import type { Seed } from '../../../shared/seed.js';

/** The scene the render worker draws (render-worker.mjs reads it as plain JSON). */
export type Rgb = [number, number, number];

export type Layer =
  | { kind: 'disc'; x: number; y: number; r: number; color: Rgb; glow: number }
  | { kind: 'rings'; x: number; y: number; spacing: number; width: number; color: Rgb; alpha: number }
  | { kind: 'stripes'; angle: number; freq: number; color: Rgb; alpha: number }
  | { kind: 'orbs'; orbs: Array<{ x: number; y: number; r: number; color: Rgb }>; alpha: number }
  | {
      kind: 'ridges';
      base: number;
      amp: number;
      freq: number;
      count: number;
      color: Rgb;
      haze: Rgb;
      salt: number;
      spiky: boolean;
    }
  | { kind: 'skyline'; base: number; cols: number; maxHeight: number; color: Rgb; light: Rgb; salt: number }
  | { kind: 'waves'; level: number; amp: number; freq: number; color: Rgb; highlight: Rgb; salt: number };

export type LayerKind = Layer['kind'];

export interface Scene {
  /** 32-bit noise seed. */
  seed: number;
  skyTop: Rgb;
  skyBottom: Rgb;
  cloud: Rgb;
  /** 0..1 vertical position of the horizon glow. */
  horizon: number;
  clouds: number;
  warp: number;
  octaves: number;
  saturation: number;
  vignette: number;
  layers: Layer[];
}

export interface SceneInput {
  prompt: string;
  negativePrompt?: string;
  seed: Seed;
  steps?: number;
  guidance?: number;
}
