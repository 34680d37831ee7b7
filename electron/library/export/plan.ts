/** What an export writes: each image's original, the unique name it gets, and its manifest row. */
import type { JobStore } from '../../db/types.js';
import type { ImageTarget } from '../../db/curation.js';
import type { MediaFile } from '../../engine/types.js';
import type { JobSummary } from '../../../shared/contract.js';
import { baseName, createNamer, extensionOf } from './names.js';
import type { ManifestRow } from './manifest.js';

export interface PlannedFile {
  imageId: string;
  name: string;
  /** The original (inside the data dir, or a linked import where it was found); null when none is known. */
  path: string | null;
  row: Omit<ManifestRow, 'file' | 'status'>;
}

export interface PlanDeps {
  store: Pick<JobStore, 'image' | 'getSummary'> & { curation: Pick<JobStore['curation'], 'resolve'> };
  resolveOriginal(imageId: string): MediaFile | null;
}

// Images of one job come together; a few recent jobs are all a plan needs to remember.
const JOB_CACHE = 256;

export function planExport(deps: PlanDeps, target: ImageTarget): PlannedFile[] {
  const ids = deps.store.curation.resolve(target);
  const jobs = new Map<string, JobSummary>();
  const jobOf = (id: string): JobSummary => {
    let job = jobs.get(id);
    if (job === undefined) {
      if (jobs.size >= JOB_CACHE) jobs.clear();
      job = deps.store.getSummary(id);
      jobs.set(id, job);
    }
    return job;
  };
  const unique = createNamer();
  const plan: PlannedFile[] = [];
  for (const imageId of ids) {
    const image = deps.store.image(imageId);
    if (image === null) continue;
    const job = jobOf(image.jobId);
    const path = deps.resolveOriginal(imageId)?.path ?? null;
    const name = unique(baseName({ createdAt: job.createdAt, prompt: job.prompt, seed: image.seed, imageId, ext: extensionOf(image.mime, image.path) }));
    plan.push({
      imageId,
      name,
      path,
      row: {
        imageId,
        jobId: image.jobId,
        createdAt: new Date(job.createdAt).toISOString(),
        source: job.source,
        provider: job.provider,
        model: job.model ?? '',
        prompt: job.prompt,
        negativePrompt: job.negativePrompt ?? '',
        seed: image.seed === undefined ? '' : String(image.seed),
        width: image.width,
        height: image.height,
        bytes: image.bytes,
        sha256: image.sha256,
      },
    });
  }
  return plan;
}
