import type { LoraRef } from './types.js';

/** The next `<lora:` or `<lyco:` at or after `from`, or -1. */
function nextTag(prompt: string, from: number): number {
  for (let at = prompt.indexOf('<', from); at >= 0; at = prompt.indexOf('<', at + 1)) {
    if (prompt.startsWith('lora:', at + 1) || prompt.startsWith('lyco:', at + 1)) return at;
  }
  return -1;
}

/**
 * `<lora:name:weight>` (also `<lyco:…>`, and A1111's `<lora:name:te:unet>`: the first number is the weight), read as
 * `<(?:lora|lyco):([^:>]+)(?::([^:>]*))?(?::[^>]*)?>` reads it, in one pass: that pattern rescans to the text's end
 * from every tag that never closes, quadratic on a prompt of `<lora:a:b:` repeated.
 */
export function lorasInPrompt(prompt: string): LoraRef[] {
  const out: LoraRef[] = [];
  // The next '>' and ':' found so far, reused while ahead: positions only grow, so each is searched for once.
  let close = -1;
  let colon = -1;
  const colonFrom = (from: number): number => {
    if (colon < from) {
      const found = prompt.indexOf(':', from);
      colon = found < 0 ? prompt.length : found;
    }
    return colon;
  };
  for (let at = nextTag(prompt, 0); at >= 0;) {
    const body = at + 6;
    if (close < body) close = prompt.indexOf('>', body);
    if (close < 0) break;
    const nameEnd = Math.min(colonFrom(body), close);
    if (nameEnd === body) {
      at = nextTag(prompt, at + 1);
      continue;
    }
    const weightText =
      nameEnd === close ? undefined : prompt.slice(nameEnd + 1, Math.min(colonFrom(nameEnd + 1), close));
    const name = prompt.slice(body, nameEnd).trim();
    const weight = weightText === undefined ? 1 : Number(weightText);
    out.push(Number.isFinite(weight) ? { name, weight } : { name });
    at = nextTag(prompt, close + 1);
  }
  return out;
}

/** `Lora hashes: "name: hash, name2: hash2"` joined onto the prompt's LoRAs by name; unknown names are added. */
export function withLoraHashes(loras: LoraRef[], hashes: string | undefined): LoraRef[] {
  if (hashes === undefined) return loras;
  const out = loras.map((l) => ({ ...l }));
  // The first LoRA of each name, found in a map: a search of the list per pair is quadratic on thousands of pairs.
  const byName = new Map<string, LoraRef>();
  for (const l of out) if (!byName.has(l.name)) byName.set(l.name, l);
  for (const pair of hashes.split(',')) {
    const at = pair.lastIndexOf(':');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const hash = pair.slice(at + 1).trim();
    if (name === '' || hash === '') continue;
    const known = byName.get(name);
    if (known) known.hash = hash;
    else {
      const added = { name, hash };
      out.push(added);
      byName.set(name, added);
    }
  }
  return out;
}
