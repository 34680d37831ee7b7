import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { type CallScope, malformedError, redact } from '../http/errors.js';
import { decodeBase64, toImage } from '../http/image.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { isRecord } from './connection.js';

/** Why Gemini withheld an answer, in words (promptFeedback.blockReason and candidates[].finishReason). */
const REASONS: Record<string, string> = {
  SAFETY: 'its safety filters',
  IMAGE_SAFETY: 'its image safety filters',
  PROHIBITED_CONTENT: 'its prohibited-content policy',
  IMAGE_PROHIBITED_CONTENT: 'its prohibited-content policy for images',
  BLOCKLIST: 'a term on its blocklist',
  SPII: 'sensitive personal information',
  RECITATION: 'resemblance to existing material (recitation)',
  IMAGE_RECITATION: 'resemblance to existing images (recitation)',
  OTHER: 'an unstated reason',
  IMAGE_OTHER: 'an unstated reason',
};
/** Finish reasons that are not a refusal; an answer without an image that ends so is a different failure. */
const NOT_BLOCKED = new Set(['STOP', 'FINISH_REASON_UNSPECIFIED', 'MAX_TOKENS', 'NO_IMAGE']);
const MAX_TEXT = 2000;

function words(reason: string): string {
  return REASONS[reason] ?? `"${reason.slice(0, 40)}"`;
}

function blocked(scope: CallScope, what: string, reason: string): AppError {
  return new AppError(
    'provider_error',
    `${scope.provider} blocked ${what} because of ${words(reason)} (${reason.slice(0, 40)}). Rephrase the prompt ` +
      `or use another image.`,
    { retryable: false, details: { phase: 'after_send', blockReason: reason.slice(0, 40) } },
  );
}

/**
 * The 200 answer: `candidates[].content.parts[]` with `inlineData` images, text, thoughts (`thought: true`, skipped:
 * they are the model's drafts) and `thoughtSignature` (only replayed in multi-turn chats, which Atelier does not hold).
 */
export async function readGeminiResult(
  response: Response,
  scope: CallScope,
  config: ProviderConfig,
  context: ProviderContext,
): Promise<ProviderOutput> {
  context.onProgress({ stage: 'downloading' });
  const json = await readJson(response, config.maxResponseBytes, scope, 'the image response');
  if (!isRecord(json)) throw malformedError(scope, 'a response that is not a JSON object');
  const feedback = isRecord(json.promptFeedback) ? json.promptFeedback : undefined;
  if (typeof feedback?.blockReason === 'string') throw blocked(scope, 'the prompt', feedback.blockReason);
  if (!Array.isArray(json.candidates) || json.candidates.length === 0)
    throw malformedError(scope, 'a response without candidates');
  const images: GeneratedImage[] = [];
  const texts: string[] = [];
  let finishReason: string | undefined;
  for (const candidate of json.candidates) {
    if (!isRecord(candidate)) continue;
    if (typeof candidate.finishReason === 'string') finishReason ??= candidate.finishReason;
    const parts = isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    for (const part of parts) {
      if (!isRecord(part) || part.thought === true) continue;
      const inline = isRecord(part.inlineData) ? part.inlineData : undefined;
      if (inline !== undefined) {
        if (typeof inline.data !== 'string') throw malformedError(scope, 'an inlineData part without data');
        const what = `image ${images.length + 1}`;
        images.push(toImage(decodeBase64(inline.data, scope, what), scope, what));
      } else if (typeof part.text === 'string' && part.text.trim() !== '') texts.push(part.text);
    }
  }
  const text = redact(texts.join('\n').slice(0, MAX_TEXT), scope.secrets);
  if (images.length === 0) {
    if (finishReason !== undefined && !NOT_BLOCKED.has(finishReason)) throw blocked(scope, 'the image', finishReason);
    throw new AppError(
      'provider_error',
      `${scope.provider} answered without an image${finishReason ? ` (finish reason ${finishReason.slice(0, 40)})` : ''}` +
        `${text === '' ? '.' : `; it said: "${text.slice(0, 300)}"`} Try asking for the image more directly.`,
      { retryable: false, details: { phase: 'after_send', ...(finishReason ? { finishReason } : {}) } },
    );
  }
  const output: ProviderOutput = { images };
  if (isRecord(json.usageMetadata)) output.usage = json.usageMetadata;
  const info: Record<string, unknown> = {};
  if (text !== '') info.text = text;
  if (typeof json.modelVersion === 'string') info.modelVersion = json.modelVersion.slice(0, 100);
  if (typeof json.responseId === 'string') info.responseId = json.responseId.slice(0, 100);
  if (Object.keys(info).length > 0) output.info = info;
  return output;
}
