import type { ImageSource } from '../../../shared/contract';

/** Each tool's name as its users write it; the keys are the contract's IMAGE_SOURCES (a unit test holds them equal). */
export const SOURCE_LABELS: Record<ImageSource, string> = {
  atelier: 'Atelier',
  a1111: 'AUTOMATIC1111',
  comfyui: 'ComfyUI',
  invokeai: 'InvokeAI',
  fooocus: 'Fooocus',
  novelai: 'NovelAI',
  swarmui: 'SwarmUI',
  easydiffusion: 'Easy Diffusion',
  midjourney: 'Midjourney',
  unknown: 'Unknown',
};

/** The card badge: short enough for a 120 px tile. */
export const SOURCE_BADGES: Record<ImageSource, string> = { ...SOURCE_LABELS, a1111: 'A1111', easydiffusion: 'Easy Diff.' };

export const SOURCE_ORDER = Object.keys(SOURCE_LABELS) as ImageSource[];
