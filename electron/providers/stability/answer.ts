import { AppError } from '../../../shared/errors.js';
import { readBounded, readJson } from '../http/body.js';
import { type CallScope, malformedError, redact } from '../http/errors.js';
import { decodeBase64, toImage } from '../http/image.js';
import type { EncodedImage, ProviderConfig } from '../types.js';
import { isRecord } from './connection.js';

/** An image Stability answered, with what it said about it. */
export interface StabilityImage {
  image: EncodedImage;
  seed?: number;
  finishReason?: string;
}

const SEED = /^\d{1,10}$/;

function seedOf(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return SEED.test(text) ? Number(text) : undefined;
}

export function isJsonAnswer(response: Response): boolean {
  return /^application\/json/i.test(response.headers.get('content-type') ?? '');
}

/**
 * A 200 carrying the image: its bytes with `finish-reason` and `seed` headers (`Accept: image/*`), or
 * `{image, finish_reason, seed}` as JSON (docs/provider-protocols.md §5).
 */
export async function readImageAnswer(
  response: Response,
  config: ProviderConfig,
  scope: CallScope,
): Promise<StabilityImage> {
  if (isJsonAnswer(response)) return imageFromJson(await readJson(response, config.maxResponseBytes, scope), scope);
  const bytes = await readBounded(response, config.maxResponseBytes, scope, 'the image');
  return checked(
    bytes,
    response.headers.get('finish-reason') ?? undefined,
    seedOf(response.headers.get('seed')),
    scope,
  );
}

/** Reads a 200's JSON once: an image answer, or the `{id}` of work to poll (creative upscale). */
export async function readSubmitJson(
  response: Response,
  config: ProviderConfig,
  scope: CallScope,
): Promise<{ id: string } | { json: Record<string, unknown> }> {
  const json = await readJson(response, config.maxResponseBytes, scope, 'the answer');
  if (!isRecord(json)) throw malformedError(scope, 'an answer that is not a JSON object');
  if (typeof json.image !== 'string' && typeof json.id === 'string') return { id: json.id.slice(0, 200) };
  return { json };
}

export function imageFromJson(json: unknown, scope: CallScope): StabilityImage {
  if (!isRecord(json) || typeof json.image !== 'string') throw malformedError(scope, 'an answer without an image');
  const finish = typeof json.finish_reason === 'string' ? json.finish_reason : undefined;
  return checked(decodeBase64(json.image, scope, 'the image'), finish, seedOf(json.seed), scope);
}

/** CONTENT_FILTERED comes back as a 200 with a blurred image: it is refused as moderation, never kept. */
function checked(
  bytes: Uint8Array,
  reason: string | undefined,
  seed: number | undefined,
  scope: CallScope,
): StabilityImage {
  const finish = reason?.slice(0, 40);
  if (finish === 'CONTENT_FILTERED') {
    throw new AppError(
      'provider_error',
      `${scope.provider}'s content filter blurred the result (finish reason CONTENT_FILTERED), so Atelier did not ` +
        `keep it. Rephrase the prompt or use another image.`,
      { retryable: false, details: { phase: 'after_send', finishReason: finish, moderation: true } },
    );
  }
  if (finish !== undefined && finish !== 'SUCCESS') {
    const said = redact(finish, scope.secrets);
    throw new AppError('provider_error', `${scope.provider} did not finish the image (finish reason ${said}).`, {
      retryable: false,
      details: { phase: 'after_send', finishReason: said },
    });
  }
  const out: StabilityImage = { image: toImage(bytes, scope, 'the image') };
  if (seed !== undefined) out.seed = seed;
  if (finish !== undefined) out.finishReason = finish;
  return out;
}
