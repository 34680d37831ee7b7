import type { ImageSource } from './contract/imports.js';

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
  civitai: 'Civitai',
  ruinedfooocus: 'RuinedFooocus',
  drawthings: 'Draw Things',
  stabilitymatrix: 'Stability Matrix',
  tensorart: 'Tensor.Art',
  huggingface: 'Hugging Face Space',
  ppdiffusers: 'PaddleNLP ppdiffusers',
  unknown: 'Unknown',
};
