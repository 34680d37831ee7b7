import { readA1111 } from './a1111.js';
import { readAtelier } from './atelier.js';
import { readEasydiffusion } from './easydiffusion.js';
import { readGeneric } from './generic.js';
import { readMidjourney } from './midjourney.js';
import { readNovelai } from './novelai.js';
import type { GeneratorReader } from './types.js';
// MERGE (readers-b): import { readFooocus } from './fooocus.js'; readSwarmui './swarmui.js'; readComfyui './comfyui.js';
// readInvokeai './invokeai.js'.

/**
 * The generator readers in priority order; the first that recognises a file's texts wins. Fooocus and SwarmUI write
 * JSON into A1111's `parameters` key, so they come before a1111; generic (a bare description) is last.
 * Final order: atelier, fooocus, swarmui, comfyui, invokeai, novelai, easydiffusion, midjourney, a1111, generic.
 */
export const READERS: readonly GeneratorReader[] = [
  readAtelier,
  // MERGE (readers-b): readFooocus, readSwarmui, readComfyui, readInvokeai,
  readNovelai,
  readEasydiffusion,
  readMidjourney,
  readA1111,
  readGeneric,
];
