import type { GenerateRequest } from '../../../shared/contract.js';
import { assetBaseName } from '../../../shared/mapping/asset-names.js';
import { loraTags } from '../lora-text.js';
import { A1111_DEFAULTS } from './capabilities.js';

/**
 * The prompt A1111 is sent: the person's, then each LoRA as `<lora:name:weight>` (its built-in Lora extension reads
 * them from the prompt, docs/metadata-formats.md). A1111 names a LoRA by its file's base name, so a name from a
 * ComfyUI image (folders, `.safetensors`) is reduced to that. The job keeps the person's prompt without the tags.
 */
export function promptWithLoras(request: Pick<GenerateRequest, 'prompt' | 'loras'>): string {
  const loras = (request.loras ?? []).map((lora) => ({ ...lora, name: assetBaseName(lora.name) }));
  if (loras.length === 0) return request.prompt;
  return `${request.prompt}${request.prompt === '' ? '' : ' '}${loraTags(loras)}`;
}

/** POST /sdapi/v1/txt2img body: one batch of `count` images, never saved there (docs/provider-protocols.md §2.3). */
export function txt2imgBody(
  request: GenerateRequest,
  model: string | undefined,
  taskId: string,
): Record<string, unknown> {
  return {
    prompt: promptWithLoras(request),
    negative_prompt: request.negativePrompt ?? '',
    seed: request.seed ?? -1,
    steps: request.steps ?? A1111_DEFAULTS.steps,
    cfg_scale: request.guidance ?? A1111_DEFAULTS.cfgScale,
    width: request.width,
    height: request.height,
    sampler_name: request.sampler ?? A1111_DEFAULTS.sampler,
    scheduler: request.scheduler ?? A1111_DEFAULTS.scheduler,
    batch_size: request.count,
    n_iter: 1,
    send_images: true,
    save_images: false,
    override_settings: model === undefined ? {} : { sd_model_checkpoint: model },
    override_settings_restore_afterwards: true,
    force_task_id: taskId,
  };
}
