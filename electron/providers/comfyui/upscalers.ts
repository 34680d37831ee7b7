import { readJson } from '../http/body.js';
import type { CallScope } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';

/**
 * A node's combo input is `[[names...], {...}]` or the newer `["COMBO", {options:[...]}]`
 * (docs/provider-protocols.md §3.5).
 */
export function comboOptions(json: unknown, node: string, input: string): string[] {
  const spec = (json as Record<string, { input?: { required?: Record<string, unknown> } }> | null)?.[node]?.input
    ?.required?.[input];
  if (!Array.isArray(spec)) return [];
  const [first, second] = spec as [unknown, unknown];
  const list = Array.isArray(first)
    ? first
    : first === 'COMBO' && second !== null && typeof second === 'object'
      ? (second as { options?: unknown }).options
      : [];
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
}

/** The server's upscale models (GET /object_info/UpscaleModelLoader); none when the node is missing. */
export async function fetchUpscalers(
  base: string,
  headers: Record<string, string>,
  scope: CallScope,
  maxBytes: number,
): Promise<string[]> {
  const response = await send(
    joinUrl(base, 'object_info/UpscaleModelLoader'),
    { headers },
    scope,
    'while listing upscale models',
  );
  if (response.status !== 200) {
    await response.body?.cancel();
    return [];
  }
  return comboOptions(
    await readJson(response, maxBytes, scope, 'the upscale model list'),
    'UpscaleModelLoader',
    'model_name',
  );
}

/** The model for a factor when the person named none: one whose name says that factor ("2x", "x4"), else the first. */
export function pickUpscaler(models: readonly string[], factor: number): string | undefined {
  const says = new RegExp(`(^|[^0-9])(${factor}x|x${factor})([^0-9]|$)`, 'i');
  return models.find((m) => says.test(m)) ?? models[0];
}
