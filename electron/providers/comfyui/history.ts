import { AppError } from '../../../shared/errors.js';
import { readBounded, readJson } from '../http/body.js';
import { sleep } from '../http/deadline.js';
import { type CallScope, malformedError } from '../http/errors.js';
import { toImage } from '../http/image.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { GeneratedImage, ProviderConfig } from '../types.js';
import type { Connection } from './connection.js';
import { type ImageRef, type RunState, isImageRef } from './run-state.js';
import { promptError } from './validation-errors.js';

/** The prompt's saved images from GET /history/{id}, waiting a little for a server that writes it late. */
export async function historyImages(
  conn: Connection,
  promptId: string,
  scope: CallScope,
  config: ProviderConfig,
  waitMs: number,
  state: RunState,
): Promise<ImageRef[]> {
  const until = Date.now() + waitMs;
  for (;;) {
    const response = await send(
      joinUrl(conn.base, `history/${encodeURIComponent(promptId)}`),
      { headers: conn.headers },
      scope,
      'while reading the history',
    );
    if (response.status !== 200) throw await promptError(response, scope);
    const json = await readJson(response, config.maxResponseBytes, scope, 'the history');
    const entry = json !== null && typeof json === 'object' ? (json as Record<string, unknown>)[promptId] : undefined;
    if (entry !== undefined && entry !== null && typeof entry === 'object') {
      const { outputs, status } = entry as {
        outputs?: Record<string, { images?: unknown[] }>;
        status?: { status_str?: unknown };
      };
      if (status?.status_str === 'error')
        throw new AppError('provider_error', 'ComfyUI recorded the prompt as failed.', {
          retryable: false,
          details: { phase: 'after_send' },
        });
      const refs = Object.values(outputs ?? {}).flatMap((o) =>
        Array.isArray(o.images) ? o.images.filter(isImageRef) : [],
      );
      // SaveImage writes type "output"; previews ("temp") only count when a workflow saves nothing.
      const saved = refs.filter((r) => (r.type ?? 'output') === 'output');
      return saved.length > 0 ? saved : refs;
    }
    // History is written just before the done signal on current servers; older ones may lag a little.
    if (Date.now() > until) {
      if (state.executedImages.length > 0) return state.executedImages;
      throw malformedError(scope, 'an empty history for the finished prompt');
    }
    await sleep(100, scope.deadline.signal);
  }
}

/** One output file from GET /view, which must be an image. */
export async function viewImage(
  conn: Connection,
  ref: ImageRef,
  scope: CallScope,
  config: ProviderConfig,
): Promise<GeneratedImage> {
  const url = joinUrl(conn.base, 'view', {
    filename: ref.filename,
    subfolder: ref.subfolder ?? '',
    type: ref.type ?? 'output',
  });
  const response = await send(
    url,
    { headers: { ...conn.headers, accept: 'image/*' } },
    scope,
    'while downloading an image',
  );
  if (response.status !== 200) throw await promptError(response, scope);
  return toImage(
    await readBounded(response, config.maxResponseBytes, scope, 'while sending an image'),
    scope,
    `the file ${ref.filename}`,
  );
}
