import type { LayerKind } from './scene-types.js';

/** The words a prompt is read for: colours, themes (hue sets), light and dark, and shapes. */
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

export const DARK_WORDS = new Set([
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
export const LIGHT_WORDS = new Set([
  'light',
  'bright',
  'pale',
  'white',
  'snow',
  'pastel',
  'soft',
  'airy',
  'sunny',
  'dawn',
]);
export const GREY_WORDS = new Set(['grey', 'gray', 'silver', 'monochrome', 'foggy', 'fog', 'mist', 'misty']);

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
export const COLOUR_HUES = new Map(Object.entries(COLOUR_HUE_TABLE));
const THEME_HUES = new Map(Object.entries(THEME_HUE_TABLE));
export const SHAPE_WORDS = new Map(Object.entries(SHAPE_WORD_TABLE));

/** Back to front: a sun sets behind mountains, waves are in front of everything. */
export const DEPTH: Record<LayerKind, number> = {
  stripes: 0,
  rings: 1,
  orbs: 2,
  disc: 3,
  ridges: 4,
  skyline: 5,
  waves: 6,
};
export const FALLBACK_KINDS: LayerKind[] = ['disc', 'ridges', 'waves', 'rings', 'orbs', 'skyline', 'stripes'];

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

export function hueWords(list: string[]): number[] {
  const hues: number[] = [];
  for (const w of list) {
    const hue = COLOUR_HUES.get(w);
    if (hue !== undefined) hues.push(hue);
  }
  for (const w of list) for (const hue of THEME_HUES.get(w) ?? []) hues.push(hue);
  return hues;
}
