/** The channels of corrections (beside what an imported file says) and of a note per image. */
import type { Handlers } from '../../shared/contract.js';
import type { EventBus } from '../base/events.js';
import type { JobStore } from '../db/types.js';
import type { SidecarWriter } from '../library/xmp/sidecar-writer.js';

export type AnnotationChannels = 'jobs.correct' | 'jobs.revertCorrections' | 'images.setNote';

export interface AnnotationDeps {
  store: JobStore;
  bus: EventBus;
  now(): number;
  announce(ids: string[]): void;
  /** A note goes to the XMP sidecar beside a linked original too (dc:description), when sidecars are on. */
  sidecars: Pick<SidecarWriter, 'queue'>;
}

export function createAnnotationHandlers({
  store,
  bus,
  now,
  announce,
  sidecars,
}: AnnotationDeps): Pick<Handlers, AnnotationChannels> {
  const a = store.annotations;
  // The card shows the corrected prompt at once; a search or count showing the job may now match or not.
  const changed = (jobId: string): void => {
    announce([jobId]);
    bus.emit('library.curated', { at: now() });
  };
  return {
    'jobs.correct': async ({ jobId, set }) => {
      const corrections = a.correct(jobId, set);
      changed(jobId);
      return { corrections };
    },
    'jobs.revertCorrections': async ({ jobId, fields }) => {
      const corrections = a.revert(jobId, fields);
      changed(jobId);
      return { corrections };
    },
    'images.setNote': async ({ imageId, text }) => {
      const { jobId, note } = a.setNote(imageId, text);
      changed(jobId);
      sidecars.queue([imageId]);
      return { note };
    },
  };
}
