import { type CallScope, malformedError } from '../http/errors.js';
import { decodeDataUri, toImage } from '../http/image.js';
import type { GeneratedImage, ProviderContext, ProviderOutput } from '../types.js';

/** A txt2img / img2img answer: its images (grid skipped) with their seeds, and the infotexts worth keeping. */
export function parseResult(
  json: unknown,
  scope: CallScope,
  context: ProviderContext,
  taskId: string,
  route: string,
): ProviderOutput {
  if (json === null || typeof json !== 'object' || !Array.isArray((json as { images?: unknown }).images)) {
    throw malformedError(scope, `a ${route} response without an "images" list`);
  }
  const body = json as { images: unknown[]; info?: unknown };
  let info: Record<string, unknown> = {};
  // `info` is a JSON string inside the JSON (docs/provider-protocols.md §7.8): parse it a second time.
  if (typeof body.info === 'string') {
    try {
      const parsed = JSON.parse(body.info) as unknown;
      if (parsed !== null && typeof parsed === 'object') info = parsed as Record<string, unknown>;
    } catch {
      context.trace('warning', 'A1111 sent an "info" string that is not JSON; seeds and infotexts are unknown.');
    }
  }
  const first = typeof info.index_of_first_image === 'number' ? info.index_of_first_image : 0;
  // With batch > 1 and grids on, the grid comes first; it is not one of the requested images.
  const payloads = body.images.slice(first);
  if (payloads.length === 0) throw malformedError(scope, `a ${route} response with no images`);
  const seeds = Array.isArray(info.all_seeds) ? info.all_seeds : [];
  const baseSeed = typeof info.seed === 'number' ? info.seed : undefined;
  const images: GeneratedImage[] = payloads.map((payload, i) => {
    if (typeof payload !== 'string') throw malformedError(scope, `image ${i + 1} that is not a base64 string`);
    const { data } = decodeDataUri(payload, scope, `image ${i + 1}`);
    const image: GeneratedImage = toImage(data, scope, `image ${i + 1}`);
    const seed = seeds[i];
    if (typeof seed === 'number') image.seed = seed;
    else if (baseSeed !== undefined) image.seed = baseSeed + i;
    return image;
  });
  const output: ProviderOutput = { images, info: { taskId } };
  if (baseSeed !== undefined) output.seed = baseSeed;
  for (const key of [
    'infotexts',
    'all_seeds',
    'sd_model_name',
    'sd_model_hash',
    'sampler_name',
    'version',
    'job_timestamp',
  ] as const) {
    if (info[key] !== undefined) output.info![key] = info[key];
  }
  if (first > 0) output.info!.gridSkipped = true;
  return output;
}
