import type { GenerateRequest } from '../../../shared/contract.js';
import { A1111_DEFAULTS } from './capabilities.js';

/** POST /sdapi/v1/txt2img body: one batch of `count` images, never saved there (docs/provider-protocols.md §2.3). */
export function txt2imgBody(
  request: GenerateRequest,
  model: string | undefined,
  taskId: string,
): Record<string, unknown> {
  return {
    prompt: request.prompt,
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
