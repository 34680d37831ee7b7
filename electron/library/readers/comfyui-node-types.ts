/** The shapes of the ComfyUI node table (comfyui-node-table.ts) and of a person's own node rules. */

/** What a node does in a graph, as far as reading its settings goes. */
export type NodeRole =
  | 'sampler'
  | 'detailer'
  | 'upscaler'
  | 'encoder'
  | 'loader'
  | 'lora'
  | 'string'
  | 'switch'
  | 'primitive'
  | 'guider'
  | 'noise'
  | 'sigmas'
  | 'select'
  | 'latent'
  | 'guidance'
  | 'output'
  | 'script';

/** The settings a node's inputs can hold (a person's own rule names one of these for an input of a class). */
export type NodeField =
  | 'prompt'
  | 'negativePrompt'
  | 'seed'
  | 'model'
  | 'steps'
  | 'guidance'
  | 'sampler'
  | 'scheduler'
  | 'denoise'
  | 'width'
  | 'height'
  | 'distilledGuidance';

/** A person's rule: this class's input holds that field (read where the trace passes through the node). */
export interface ComfyNodeRule {
  classType: string;
  input: string;
  field: 'prompt' | 'negativePrompt' | 'seed' | 'model' | 'steps' | 'guidance' | 'sampler' | 'width' | 'height';
}

export interface NodeSpec {
  role?: NodeRole;
  /** UI workflow widget names in `widgets_values` order (a seed's control widget is found by its value). */
  widgets?: string[];
  /** Which inputs hold which setting, first present wins. */
  fields?: Partial<Record<NodeField, string[]>>;
  /** string: the inputs joined (in order) into its text; lora stacks: the numbered inputs are read by `loraStack`. */
  parts?: string[];
  /** string: the input naming the separator between parts (else `joiner`). */
  delimiter?: string;
  joiner?: string;
  /** string nodes with two texts out (prompt stylers): the input each output index carries. */
  outputs?: string[];
  /** switch: the input that selects, and the inputs it selects among (by 1-based number, or [false, true]). */
  select?: string;
  options?: string[];
  /** The input the image or latent comes through, for the walk from an output back to the first pass. */
  from?: string[];
  /** lora: which LoRA inputs to read. */
  lora?: LoraInputs;
  /** Its conditioning out is not its conditioning in (ConditioningZeroOut): a prompt trace stops here. */
  stops?: boolean;
  /** A conditioning node that carries an earlier pass's latent in this input (Stable Cascade's stage C for B). */
  prior?: string;
  /** A sampler that takes its model and prompts through one input from a loader (Efficiency's `sdxl_tuple`). */
  pipe?: string;
  /** script: what the pass it adds to its sampler does (Efficiency's HighRes-Fix and Tiled Upscaler scripts). */
  scriptPass?: 'hires' | 'upscale';
  /** A bus (rgthree's Context): the input each output passes on, by output index; unset ones come from `base_ctx`. */
  bus?: string[];
}

/** Where a LoRA node keeps names and weights: one (`name`/`weight`) or numbered slots (`name` with `#`). */
export interface LoraInputs {
  name: string;
  weight: string[];
  /** Numbered slots: `#` in name/weight/switch stands for 1…count. */
  count?: number;
  /** An on/off input per slot (Comfyroll's "On"/"Off", Efficiency's switch). */
  on?: string;
  /** rgthree Power Lora Loader: `lora_N: {on, lora, strength}` objects. */
  objects?: boolean;
  /** The input saying how many numbered slots are in use. */
  limit?: string;
  /** Weights read instead when the `input_mode` input says "advanced" (Efficiency's LoRA Stacker). */
  advanced?: string[];
}
