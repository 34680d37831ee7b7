import type { GenerateRequest } from '../../../shared/contract.js';
import { boundedChunks, parseJsonSync } from '../http/body.js';
import { type CallScope, droppedError, malformedError } from '../http/errors.js';
import { decodeBase64, toImage } from '../http/image.js';
import { parseSse } from '../http/sse.js';
import type { EncodedImage, GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { isRecord } from './connection.js';
import { extractOpenAIError, openAIError } from './errors.js';

/** A streamed answer (SSE): partial images become previews and progress, completed events the images. */
export async function readStream(
  response: Response,
  request: GenerateRequest,
  scope: CallScope,
  config: ProviderConfig,
  context: ProviderContext,
): Promise<ProviderOutput> {
  const partialsWanted = request.partialImages ?? 0;
  const images: GeneratedImage[] = [];
  let usage: Record<string, unknown> | undefined;
  let partials = 0;
  const info: Record<string, unknown> = {};
  for await (const event of parseSse(
    boundedChunks(response, config.maxResponseBytes, scope, 'while streaming images'),
  )) {
    if (event.data.trim() === '[DONE]') break;
    if (event.event === 'error')
      throw openAIError(
        0,
        response.headers,
        extractOpenAIError(parseJsonSync(event.data, scope, 'a stream error event')),
        scope,
      );
    const json = parseJsonSync(event.data, scope, `a "${event.event}" stream event`);
    if (!isRecord(json)) throw malformedError(scope, 'a stream event that is not a JSON object');
    if (json.error !== undefined && json.error !== null && json.error !== false) {
      throw openAIError(0, response.headers, extractOpenAIError(json), scope);
    }
    const type = typeof json.type === 'string' ? json.type : event.event;
    if (type.endsWith('.partial_image')) {
      partials += 1;
      const index = typeof json.partial_image_index === 'number' ? json.partial_image_index : partials - 1;
      const preview = decodePartial(json.b64_json, scope, context, index);
      if (preview !== null) context.onPartialImage(preview);
      context.onProgress({
        stage: 'partial',
        fraction: Math.min(0.95, (index + 1) / (partialsWanted + 1)),
        step: index + 1,
        steps: partialsWanted + 1,
      });
    } else if (type.endsWith('.completed')) {
      if (typeof json.b64_json !== 'string') throw malformedError(scope, 'a completed event without b64_json');
      images.push(
        toImage(decodeBase64(json.b64_json, scope, `image ${images.length + 1}`), scope, `image ${images.length + 1}`),
      );
      if (isRecord(json.usage)) usage = json.usage;
      for (const key of ['size', 'quality', 'background', 'output_format', 'created_at'] as const) {
        if (json[key] !== undefined) info[key] = json[key];
      }
    } else {
      context.trace('stream', `Ignored a "${type}" stream event.`);
    }
  }
  if (images.length === 0) throw droppedError(scope, 'before the final image arrived');
  if (images.length < request.count) {
    context.trace('warning', `OpenAI streamed ${images.length} of ${request.count} images.`, {
      received: images.length,
      requested: request.count,
    });
  }
  const output: ProviderOutput = { images };
  if (usage !== undefined) output.usage = usage;
  if (Object.keys(info).length > 0) output.info = { ...info, partialImages: partials };
  return output;
}

/** A broken preview is not worth failing a paid generation over: it is traced and skipped. */
function decodePartial(b64: unknown, scope: CallScope, context: ProviderContext, index: number): EncodedImage | null {
  try {
    if (typeof b64 !== 'string') throw malformedError(scope, 'a partial image without b64_json');
    return toImage(decodeBase64(b64, scope, `partial image ${index + 1}`), scope, `partial image ${index + 1}`);
  } catch (error) {
    context.trace(
      'warning',
      `Skipped partial preview ${index + 1}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}
