import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AppError } from '../../shared/errors.js';
import type { JobStore } from '../db/types.js';
import type { EventBus } from '../base/events.js';
import type { SettingsService } from './settings-service.js';
import type { Logger } from '../base/logger.js';

const DAY = 24 * 60 * 60 * 1000;
const ANNOUNCE_SLICE = 200;

export interface RetentionDeps {
  store: JobStore;
  settings: SettingsService;
  bus: EventBus;
  log: Logger;
  removeFiles(files: string[]): Promise<void>;
}

/** Retention and the trash's auto-empty: what happens to old jobs without the person asking each time. */
export function createRetention(deps: RetentionDeps) {
  const { store, bus, log } = deps;

  /** `jobs.changed` for each id, a slice at a time so a pass that moves thousands leaves the loop serving. */
  const announce = async (ids: string[]): Promise<void> => {
    for (let i = 0; i < ids.length; i += ANNOUNCE_SLICE) {
      for (const id of ids.slice(i, i + ANNOUNCE_SLICE)) {
        try {
          bus.emit('jobs.changed', { job: store.getSummary(id) });
        } catch (error) {
          // Purged meanwhile: its `jobs.removed` went out already.
          if (!(error instanceof AppError && error.code === 'not_found')) throw error;
        }
      }
      if (i + ANNOUNCE_SLICE < ids.length) await yieldToLoop();
    }
  };

  /** Retention never deletes: it moves jobs to the trash (favorites never), whose own auto-empty then applies. */
  const applyRetention = async (): Promise<void> => {
    const { retention } = deps.settings.current();
    const moved = store.prune({
      maxAgeMs: retention.maxAgeDays === null ? null : retention.maxAgeDays * DAY,
      maxJobs: retention.maxJobs,
      maxBytes: retention.maxBytes,
    });
    if (moved.jobs > 0)
      log.info('retention moved jobs to the trash', { jobs: moved.jobs, images: moved.images, bytes: moved.bytes });
    await announce(moved.ids);
  };

  const maintain = async (): Promise<void> => {
    const { retention } = deps.settings.current();
    if (retention.trashAutoEmptyDays > 0) {
      // Favorites in the trash stay: only Empty trash, with its counted confirmation, removes them.
      const expired = store.emptyTrashOlderThan(retention.trashAutoEmptyDays * DAY);
      if (expired.ids.length > 0) bus.emit('jobs.removed', { ids: expired.ids });
      await announce(expired.changed ?? []);
      await deps.removeFiles(expired.files);
    }
    await applyRetention();
  };

  return { announce, applyRetention, maintain };
}
