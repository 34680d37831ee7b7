import { readBounded } from '../http/body.js';
import { type CallScope, malformedError } from '../http/errors.js';
import { decodeDataUri, toImage } from '../http/image.js';
import { send } from '../http/request.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { isRecord } from './connection.js';
import { endedError } from './errors.js';
import { seedFromLogs } from './logs.js';
import type { Prediction } from './prediction.js';

/** A job asks for at most 10 images; more links than that are not an answer to it. */
const MAX_OUTPUTS = 10;

/** The file links in `output`: one string, a list of strings, or FileOutput-style `{url}` objects. */
export function outputLinks(output: unknown, scope: CallScope): string[] {
  const items = Array.isArray(output) ? output.slice(0, MAX_OUTPUTS + 1) : [output];
  const links: string[] = [];
  for (const item of items) {
    if (typeof item === 'string' && item !== '') links.push(item);
    else if (isRecord(item) && typeof item.url === 'string') links.push(item.url);
  }
  if (links.length === 0) throw malformedError(scope, 'a finished prediction without any image in its output');
  if (links.length > MAX_OUTPUTS) throw malformedError(scope, `more than ${MAX_OUTPUTS} outputs for one job`);
  return links;
}

/** A create answer (Prefer: wait) that already holds every output file while its status is still processing. */
export function heldFilesReady(prediction: Prediction): boolean {
  if (prediction.status !== 'processing' && prediction.status !== 'starting') return false;
  const { output } = prediction;
  if (typeof output === 'string') return output !== '';
  return (
    Array.isArray(output) &&
    output.length > 0 &&
    output.every(
      (item) => (typeof item === 'string' && item !== '') || (isRecord(item) && typeof item.url === 'string'),
    )
  );
}

/** One output: a data URI decoded strictly, or a link downloaded at once, without the token, within the size cap. */
async function fetchOutput(
  link: string,
  id: string,
  config: ProviderConfig,
  scope: CallScope,
): Promise<GeneratedImage> {
  if (link.startsWith('data:')) return toImage(decodeDataUri(link, scope, 'the output').data, scope, 'the output');
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw malformedError(scope, 'an output link that is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw malformedError(scope, 'an output link that is not http');
  const response = await send(url.href, { headers: { accept: 'image/*' } }, scope, 'while downloading the output');
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw endedError(
      scope,
      `${scope.provider} made the image, but its output link answered HTTP ${response.status} (outputs last about an ` +
        'hour and may have expired). Run the job again.',
      { status: response.status, predictionId: id, remoteGone: true },
    );
  }
  return toImage(await readBounded(response, config.maxResponseBytes, scope, 'the output'), scope, 'the output');
}

/** The seed a job asked for, and whether its model takes one at all. */
export interface Seeding {
  asked: GeneratedImage['seed'];
  takesSeed: boolean;
}

/** Downloads a succeeded prediction's outputs and shapes the job's output (a fresh run and a resumed one alike). */
export async function collectOutputs(
  prediction: Prediction,
  seeding: Seeding,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
): Promise<ProviderOutput> {
  if (prediction.dataRemoved) {
    throw endedError(
      scope,
      `${scope.provider} has removed prediction ${prediction.id}'s outputs (they expire). Run the job again.`,
      { predictionId: prediction.id, remoteGone: true },
    );
  }
  const links = outputLinks(prediction.output, scope);
  context.onProgress({ stage: 'downloading' });
  // A model that takes no seed (Recraft) has none to report, whatever its logs say.
  const seed = seeding.takesSeed ? (seeding.asked ?? seedFromLogs(prediction.logs)) : undefined;
  const images: GeneratedImage[] = [];
  for (const [index, link] of links.entries()) {
    const image: GeneratedImage = await fetchOutput(link, prediction.id, config, scope);
    if (seed !== undefined) image.seed = seed;
    // num_outputs images share one seed: their place in the batch is what tells them apart.
    if (seed !== undefined && links.length > 1) image.batchIndex = index;
    images.push(image);
  }
  context.onProgress({ stage: 'done', fraction: 1 });
  const info: Record<string, unknown> = { replicatePredictionId: prediction.id };
  if (prediction.predictSeconds !== undefined) info.predictSeconds = prediction.predictSeconds;
  return { images, ...(seed === undefined ? {} : { seed }), info };
}
