import { readA1111 } from './a1111.js';
import { readAtelier } from './atelier.js';
import { readCivitai } from './civitai.js';
import { readComfyui } from './comfyui.js';
import { readDrawthings } from './drawthings.js';
import { readEasydiffusion } from './easydiffusion.js';
import { readFooocus } from './fooocus.js';
import { readGeneric } from './generic.js';
import { readHuggingface } from './huggingface.js';
import { readInvokeai } from './invokeai.js';
import { readMidjourney } from './midjourney.js';
import { readNovelai } from './novelai.js';
import { readRuinedfooocus } from './ruinedfooocus.js';
import { readStabilitymatrix } from './stabilitymatrix.js';
import { readSwarmui } from './swarmui.js';
import { readTensorart } from './tensorart.js';
import type { GeneratorReader } from './types.js';

/**
 * The generator readers in priority order; the first that recognises a file's texts wins. Fooocus, RuinedFooocus,
 * SwarmUI and Hugging Face Spaces write JSON into A1111's `parameters` key, so they come before a1111; Stability
 * Matrix and Tensor.Art write a ComfyUI graph beside their own record, so they come before comfyui; Civitai writes
 * A1111 text with its resource list, so it comes before a1111; Draw Things and Midjourney come before generic, which
 * reads the same XMP and captions as a bare description, last.
 */
export const READERS: readonly GeneratorReader[] = [
  readAtelier,
  readFooocus,
  readRuinedfooocus,
  readSwarmui,
  readHuggingface,
  readStabilitymatrix,
  readTensorart,
  readComfyui,
  readCivitai,
  readInvokeai,
  readNovelai,
  readEasydiffusion,
  readDrawthings,
  readMidjourney,
  readA1111,
  readGeneric,
];
