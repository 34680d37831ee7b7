import { readA1111 } from './a1111.js';
import { readAtelier } from './atelier.js';
import { readComfyui } from './comfyui.js';
import { readEasydiffusion } from './easydiffusion.js';
import { readFooocus } from './fooocus.js';
import { readGeneric } from './generic.js';
import { readInvokeai } from './invokeai.js';
import { readMidjourney } from './midjourney.js';
import { readNovelai } from './novelai.js';
import { readSwarmui } from './swarmui.js';
import type { GeneratorReader } from './types.js';

/**
 * The generator readers in priority order; the first that recognises a file's texts wins. Fooocus and SwarmUI write
 * JSON into A1111's `parameters` key, so they come before a1111; generic (a bare description) is last.
 */
export const READERS: readonly GeneratorReader[] = [
  readAtelier,
  readFooocus,
  readSwarmui,
  readComfyui,
  readInvokeai,
  readNovelai,
  readEasydiffusion,
  readMidjourney,
  readA1111,
  readGeneric,
];
