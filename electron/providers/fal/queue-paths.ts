import { AppError } from '../../../shared/errors.js';
import { joinUrl } from '../http/url.js';

/** fal's app namespaces that come before owner/alias (fal-js `parseEndpointId`: workflows/…, comfy/…). */
const NAMESPACES = new Set(['workflows', 'comfy']);
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_MODEL_ID = 200;

/** The model id's path segments, or an invalid_request naming what is wrong; nothing is sent before this passes. */
export function modelSegments(model: string): string[] {
  const segments = model.length > MAX_MODEL_ID ? [] : model.split('/');
  const minimum = NAMESPACES.has(segments[0] ?? '') ? 3 : 2;
  if (segments.length < minimum || !segments.every((s) => SEGMENT.test(s) && s.length <= 100)) {
    throw new AppError(
      'invalid_request',
      `"${model.slice(0, 80)}" is not a fal.ai model id. Use owner/model as fal lists it, e.g. fal-ai/flux/dev.`,
      { details: { field: 'model' } },
    );
  }
  return segments;
}

/** The submit URL: the whole id, sub-path included (`POST queue.fal.run/fal-ai/flux/dev`). */
export function submitUrl(base: string, model: string): string {
  return joinUrl(base, modelSegments(model).map(encodeURIComponent).join('/'));
}

/**
 * The app part of the id that status, result and cancel URLs use: the sub-path is dropped
 * (docs/hosted-protocols.md §1.3: `fal-ai/flux/dev` polls under `fal-ai/flux`).
 */
export function appPath(model: string): string {
  const segments = modelSegments(model);
  const keep = NAMESPACES.has(segments[0]!) ? 3 : 2;
  return segments.slice(0, keep).map(encodeURIComponent).join('/');
}

export interface QueueUrls {
  statusUrl: string;
  responseUrl: string;
  cancelUrl: string;
}

/** The URLs fal would return for a request, built only when its answer left one out. */
export function queueUrlsFor(base: string, model: string, requestId: string): QueueUrls {
  const request = joinUrl(base, `${appPath(model)}/requests/${encodeURIComponent(requestId)}`);
  return { statusUrl: `${request}/status`, responseUrl: request, cancelUrl: `${request}/cancel` };
}
