/** What an export writes: each image's original, the unique name it gets, and its manifest row. */
import type { JobStore } from '../../db/types.js';
import type { ImageTarget } from '../../db/curation.js';
import type { ReadTarget } from '../originals/original-reader.js';
import type { JobSummary } from '../../../shared/contract.js';
import { baseName, createNamer, extensionOf } from './names.js';
import type { ManifestRow } from './manifest.js';

export interface PlannedFile {
  imageId: string;
  name: string;
  /** The original as a guarded read (inside the data dir, or a linked import inside its folder); null when none is known. */
  source: ReadTarget | null;
}

export type ManifestFields = Omit<ManifestRow, 'file' | 'status'>;

export interface PlanDeps {
  store: Pick<JobStore, 'image' | 'getSummary'> & {
    curation: Pick<JobStore['curation'], 'resolve'>;
    annotations: Pick<JobStore['annotations'], 'noteOf'>;
  };
  resolveOriginal(imageId: string): ReadTarget | null;
}

// Images of one job come together; a few recent jobs are all a plan needs to remember.
const JOB_CACHE = 256;

/** Reads each job once while its images come in a row (a plan lists a job's images together). */
function jobReader(store: PlanDeps['store']): (id: string) => JobSummary {
  const jobs = new Map<string, JobSummary>();
  return (id) => {
    let job = jobs.get(id);
    if (job === undefined) {
      if (jobs.size >= JOB_CACHE) jobs.clear();
      job = store.getSummary(id);
      jobs.set(id, job);
    }
    return job;
  };
}

export function planExport(deps: PlanDeps, target: ImageTarget): PlannedFile[] {
  const ids = deps.store.curation.resolve(target);
  const jobOf = jobReader(deps.store);
  const unique = createNamer();
  const plan: PlannedFile[] = [];
  for (const imageId of ids) {
    const image = deps.store.image(imageId);
    if (image === null) continue;
    const job = jobOf(image.jobId);
    const source = deps.resolveOriginal(imageId);
    const name = unique(
      baseName({
        createdAt: job.createdAt,
        prompt: job.prompt,
        seed: image.seed,
        imageId,
        ext: extensionOf(image.mime, image.path),
      }),
    );
    plan.push({ imageId, name, source });
  }
  return plan;
}

/**
 * The manifest's settings for a planned image, read again when the manifest is written: a plan of 100,000 images
 * holds names and paths only, never every prompt. An image purged since reads as what the plan knew.
 */
export function manifestReader(deps: PlanDeps): (file: PlannedFile) => ManifestFields {
  const jobOf = jobReader(deps.store);
  return ({ imageId }) => {
    const image = deps.store.image(imageId);
    const job = image === null ? null : jobOf(image.jobId);
    return {
      imageId,
      jobId: image?.jobId ?? '',
      createdAt: job === null ? '' : new Date(job.createdAt).toISOString(),
      source: job?.source ?? '',
      provider: job?.provider ?? '',
      model: job?.model ?? '',
      prompt: job?.prompt ?? '',
      negativePrompt: job?.negativePrompt ?? '',
      seed: image?.seed === undefined ? '' : String(image.seed),
      width: image?.width ?? 0,
      height: image?.height ?? 0,
      bytes: image?.bytes ?? 0,
      sha256: image?.sha256 ?? '',
      note: image === null ? '' : (deps.store.annotations.noteOf(imageId) ?? ''),
    };
  };
}
