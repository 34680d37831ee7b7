import type { LoraRef } from './types.js';

/** `<lora:name:weight>` (also `<lyco:…>`, and A1111's `<lora:name:te:unet>`: the first number is the weight). */
const LORA_TAG = /<(?:lora|lyco):([^:>]+)(?::([^:>]*))?(?::[^>]*)?>/g;

export function lorasInPrompt(prompt: string): LoraRef[] {
  const out: LoraRef[] = [];
  for (const match of prompt.matchAll(LORA_TAG)) {
    const name = match[1]!.trim();
    const weight = match[2] === undefined ? 1 : Number(match[2]);
    out.push(Number.isFinite(weight) ? { name, weight } : { name });
  }
  return out;
}

/** `Lora hashes: "name: hash, name2: hash2"` joined onto the prompt's LoRAs by name; unknown names are added. */
export function withLoraHashes(loras: LoraRef[], hashes: string | undefined): LoraRef[] {
  if (hashes === undefined) return loras;
  const out = loras.map((l) => ({ ...l }));
  for (const pair of hashes.split(',')) {
    const at = pair.lastIndexOf(':');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const hash = pair.slice(at + 1).trim();
    if (name === '' || hash === '') continue;
    const known = out.find((l) => l.name === name);
    if (known) known.hash = hash;
    else out.push({ name, hash });
  }
  return out;
}
