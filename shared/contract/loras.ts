/** LoRAs a request applies: each by the name its server lists, at a weight. */
import { z } from 'zod';
import { num, typedName } from './common.js';

/** At most this many LoRAs on one request (a ComfyUI chain of loaders, A1111 tags in the prompt). */
export const MAX_LORAS = 16;

export const LoraSpec = z.strictObject({
  /** As the server lists it (A1111's name, ComfyUI's file name under models/loras). */
  name: typedName('LoRA name', 200),
  /** 1 is the LoRA as trained; negative weights push away from it. */
  weight: num('LoRA weight', -4, 4),
});
export type LoraSpec = z.infer<typeof LoraSpec>;

export const Loras = z.array(LoraSpec).max(MAX_LORAS, `At most ${MAX_LORAS} LoRAs on one request.`);
