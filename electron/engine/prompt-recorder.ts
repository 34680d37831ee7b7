import type { JobStore } from '../db/types.js';
import type { Logger } from '../base/logger.js';

export interface PromptRecorder {
  /** Notes a submitted prompt; a burst of submits is written in one transaction. */
  record(prompt: string): void;
}

/**
 * Prompts noted while one batch of submits resolves go to the history together (a microtask after them), so a burst
 * group-committed by the submit batcher does not pay a commit each for its history, and nothing noted can wait past a
 * quit. The history is a convenience: failing to write it never fails the job, which is already stored.
 */
export function createPromptRecorder(store: Pick<JobStore, 'prompts'>, log?: Pick<Logger, 'warn'>): PromptRecorder {
  let pending: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const prompts = pending;
    pending = [];
    try {
      store.prompts.record(prompts);
    } catch (error) {
      // A full disk or a closed store: the jobs are stored; only their recall from the history is lost.
      log?.warn('could not record submitted prompts in the history', { prompts: prompts.length, error: String(error) });
    }
  };
  return {
    record(prompt) {
      pending.push(prompt);
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(flush);
    },
  };
}
