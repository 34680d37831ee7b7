import type { LoraSpec } from '../../shared/contract.js';

/** A weight as a person would write it: 0.7, not 0.7000000000000001 (float noise from a slider or a sweep's range). */
export function formatWeight(weight: number): string {
  return String(Number(weight.toFixed(4)) + 0);
}

/** Characters A1111's `<lora:name:weight>` parser cannot take inside a name (extra_networks.py splits on `:`). */
export const LORA_TAG_UNSAFE = /[:<>]/;

/** The LoRAs as A1111's extra-network tags, space-separated: `<lora:add_detail:0.7> <lora:style:1>`. */
export function loraTags(loras: readonly LoraSpec[]): string {
  return loras.map((lora) => `<lora:${lora.name}:${formatWeight(lora.weight)}>`).join(' ');
}
