/**
 * Turns a prompt into a scene description for the render worker: palette from colour and theme words, shapes
 * from shape words (or a hash of the words), positions from the seed. Pure and deterministic; the worker only
 * does pixel math on the plain object this returns.
 */
import { type Seed, seedToBigInt } from '../../../shared/seed.js';

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

const COLOUR_HUE_TABLE: Record<string, number> = {
  red: 0,
  crimson: 350,
  scarlet: 5,
  ruby: 348,
  wine: 345,
  rose: 340,
  pink: 330,
  magenta: 305,
  fuchsia: 310,
  orange: 28,
  amber: 40,
  peach: 25,
  coral: 12,
  rust: 18,
  copper: 24,
  brown: 25,
  coffee: 28,
  gold: 45,
  golden: 45,
  yellow: 55,
  lemon: 58,
  lime: 90,
  olive: 70,
  green: 125,
  emerald: 145,
  jade: 150,
  mint: 155,
  moss: 90,
  teal: 175,
  aqua: 180,
  cyan: 185,
  turquoise: 178,
  blue: 220,
  azure: 210,
  sapphire: 225,
  cobalt: 215,
  navy: 230,
  indigo: 250,
  violet: 270,
  purple: 280,
  lavender: 265,
  lilac: 285,
  plum: 295,
};

const THEME_HUE_TABLE: Record<string, number[]> = {
  sunset: [20, 330, 270],
  sunrise: [35, 340, 200],
  dusk: [280, 20],
  dawn: [35, 200],
  ocean: [205, 185],
  sea: [205, 180],
  water: [195],
  lake: [200, 150],
  river: [195, 130],
  beach: [45, 190],
  forest: [125, 95, 35],
  jungle: [130, 100],
  tree: [120, 35],
  trees: [120, 35],
  leaf: [100],
  garden: [110, 330],
  fire: [10, 35],
  flame: [15, 40],
  lava: [5, 25],
  volcano: [8, 280],
  desert: [40, 25],
  sand: [42],
  ice: [195, 210],
  snow: [205, 220],
  winter: [210, 195],
  frost: [195],
  glacier: [190],
  space: [250, 290, 220],
  galaxy: [270, 310, 210],
  nebula: [300, 260, 190],
  cosmic: [265, 200],
  stars: [240, 50],
  neon: [305, 185],
  cyberpunk: [300, 190],
  synthwave: [310, 260, 190],
  vaporwave: [300, 180],
  autumn: [25, 40, 10],
  fall: [25, 40],
  spring: [100, 330],
  summer: [50, 195],
  candy: [330, 190],
  night: [235, 260],
  midnight: [240],
  storm: [215, 260],
  rain: [210],
  city: [220, 35],
  moon: [230, 50],
};

const DARK_WORDS = new Set([
  'dark',
  'night',
  'midnight',
  'shadow',
  'shadows',
  'noir',
  'black',
  'gloomy',
  'storm',
  'deep',
  'moody',
]);
const LIGHT_WORDS = new Set(['light', 'bright', 'pale', 'white', 'snow', 'pastel', 'soft', 'airy', 'sunny', 'dawn']);
const GREY_WORDS = new Set(['grey', 'gray', 'silver', 'monochrome', 'foggy', 'fog', 'mist', 'misty']);

const SHAPE_WORD_TABLE: Record<string, LayerKind> = {
  sun: 'disc',
  moon: 'disc',
  planet: 'disc',
  orb: 'disc',
  sunset: 'disc',
  sunrise: 'disc',
  eclipse: 'disc',
  mountain: 'ridges',
  mountains: 'ridges',
  hill: 'ridges',
  hills: 'ridges',
  peak: 'ridges',
  peaks: 'ridges',
  landscape: 'ridges',
  valley: 'ridges',
  cliff: 'ridges',
  cliffs: 'ridges',
  forest: 'ridges',
  trees: 'ridges',
  ocean: 'waves',
  sea: 'waves',
  wave: 'waves',
  waves: 'waves',
  water: 'waves',
  lake: 'waves',
  river: 'waves',
  beach: 'waves',
  city: 'skyline',
  skyline: 'skyline',
  tower: 'skyline',
  towers: 'skyline',
  building: 'skyline',
  buildings: 'skyline',
  street: 'skyline',
  ring: 'rings',
  rings: 'rings',
  circle: 'rings',
  circles: 'rings',
  portal: 'rings',
  ripple: 'rings',
  eye: 'rings',
  vortex: 'rings',
  stripes: 'stripes',
  lines: 'stripes',
  geometric: 'stripes',
  pattern: 'stripes',
  abstract: 'stripes',
  rain: 'stripes',
  bokeh: 'orbs',
  bubbles: 'orbs',
  lights: 'orbs',
  lanterns: 'orbs',
  fireflies: 'orbs',
  stars: 'orbs',
  galaxy: 'orbs',
  nebula: 'orbs',
};

// Maps, not object lookups: a prompt word like "constructor" must not find Object.prototype members.
const COLOUR_HUES = new Map(Object.entries(COLOUR_HUE_TABLE));
const THEME_HUES = new Map(Object.entries(THEME_HUE_TABLE));
const SHAPE_WORDS = new Map(Object.entries(SHAPE_WORD_TABLE));

/** Back to front: a sun sets behind mountains, waves are in front of everything. */
const DEPTH: Record<LayerKind, number> = { stripes: 0, rings: 1, orbs: 2, disc: 3, ridges: 4, skyline: 5, waves: 6 };
const FALLBACK_KINDS: LayerKind[] = ['disc', 'ridges', 'waves', 'rings', 'orbs', 'skyline', 'stripes'];

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** FNV-1a over UTF-16 units, 32-bit. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for placing shapes. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Any 64-bit seed: its high 32 bits folded into its low 32 (the state mulberry32 takes), the same seed the same state. */
export function seed32(seed: Seed): number {
  const value = seedToBigInt(seed);
  return Number((value & 0xffffffffn) ^ ((value >> 32n) & 0xffffffffn)) >>> 0;
}

function hsl(h: number, s: number, l: number): Rgb {
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

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

function hueWords(list: string[]): number[] {
  const hues: number[] = [];
  for (const w of list) {
    const hue = COLOUR_HUES.get(w);
    if (hue !== undefined) hues.push(hue);
  }
  for (const w of list) for (const hue of THEME_HUES.get(w) ?? []) hues.push(hue);
  return hues;
}

function paletteHues(promptWords: string[], negativeHues: number[], wordHash: number): number[] {
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

  const layers: Layer[] = kinds.slice(0, 4).map(({ kind, word }) => {
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
  });
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
