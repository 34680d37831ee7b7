import sharp from 'sharp';
import type { GenerateRequest } from '../../../shared/contract.js';
import { readJson } from '../http/body.js';
import { type CallScope, malformedError } from '../http/errors.js';
import { decodeDataUri, toImage } from '../http/image.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderHooks } from '../skeleton/run-job.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, SourceImage } from '../types.js';
import { a1111ResponseError } from './errors.js';
import { chooseUpscaler, toBase64 } from './operations.js';

/** The most pixels an upscaled answer may have before Atelier refuses to decode its header (a decompression bomb). */
const MAX_PIXELS = 16384 * 16384;

interface UpscaleCall {
  factor: number;
  upscaler: string;
  body: Record<string, unknown>;
}

/**
 * POST /sdapi/v1/extra-single-image (docs/provider-protocols.md §9): one image scaled by 2 or 4 with the chosen
 * upscaler. It has no task id, so no progress and no cancel hook: cancel drops the connection (A1111 finishes the
 * short job on its own). The caller adds the job's fail and close.
 */
export function upscaleHooks(
  request: GenerateRequest,
  source: SourceImage,
  target: { base: string; headers: Record<string, string>; config: ProviderConfig },
  scope: CallScope,
  context: ProviderContext,
): ProviderHooks<UpscaleCall, UpscaleCall & { response: Response }, unknown> {
  return {
    async connect() {
      const factor = request.upscale!.factor;
      const upscaler = request.upscale!.upscaler ?? chooseUpscaler(target.config.upscalers);
      const body = {
        image: toBase64(source.data),
        resize_mode: 0,
        upscaling_resize: factor,
        upscaler_1: upscaler,
        show_extras_results: true,
      };
      return { factor, upscaler, body };
    },

    async submit(call) {
      const { factor, upscaler } = call;
      context.trace('request', `POST /sdapi/v1/extra-single-image (×${factor}, ${upscaler})`, {
        factor,
        upscaler,
        width: source.width,
        height: source.height,
      });
      context.onProgress({ stage: 'upscaling', fraction: 0 });
      const response = await send(
        joinUrl(target.base, 'sdapi/v1/extra-single-image'),
        { method: 'POST', headers: target.headers, json: call.body },
        scope,
        'while A1111 was upscaling',
      );
      if (response.status !== 200) throw await a1111ResponseError(response, scope, 'upscale API');
      context.onAccepted();
      return { ...call, response };
    },

    await: (sent) => readJson(sent.response, target.config.maxResponseBytes, scope, 'the upscale response'),

    async collect(json, call) {
      const { factor, upscaler } = call;
      const payload = json !== null && typeof json === 'object' ? (json as { image?: unknown }).image : undefined;
      if (typeof payload !== 'string' || payload === '')
        throw malformedError(scope, 'an upscale response without an "image"');
      const image: GeneratedImage = toImage(
        decodeDataUri(payload, scope, 'an upscaled image').data,
        scope,
        'an upscaled image',
      );
      const size = await measure(image.data, scope);
      // Upscaler.upscale rounds the target down to a multiple of 8 (modules/upscaler.py); older builds do not.
      const accepts = (side: number, got: number) =>
        got === side * factor || got === Math.floor((side * factor) / 8) * 8;
      if (!accepts(source.width, size.width) || !accepts(source.height, size.height)) {
        throw malformedError(
          scope,
          `an upscaled image of ${size.width}x${size.height}, not the ` +
            `${source.width * factor}x${source.height * factor} asked for`,
          {
            expected: { width: source.width * factor, height: source.height * factor },
            received: size,
          },
        );
      }
      image.width = size.width;
      image.height = size.height;
      context.onProgress({ stage: 'done', fraction: 1 });
      return { images: [image], info: { upscaler, factor } };
    },
  };
}

async function measure(bytes: Uint8Array, scope: CallScope): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    if (meta.width !== undefined && meta.height !== undefined && meta.width > 0 && meta.height > 0)
      return { width: meta.width, height: meta.height };
  } catch {
    // Falls through: an image sharp cannot read is reported like one without a size.
  }
  throw malformedError(scope, 'an upscaled image that could not be read');
}
