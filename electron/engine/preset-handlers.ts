import type { Handlers } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import { readStylesCsv } from '../library/styles-csv.js';

export type PresetChannels = 'presets.list' | 'presets.save' | 'presets.delete' | 'presets.importStyles' | 'prompts.history';

export interface PromptRecorder {
  /** Notes a submitted prompt; a burst of submits is written in one transaction. */
  record(prompt: string): void;
  /** Writes what is noted now (the history handler calls it before it reads). */
  flush(): void;
}

/**
 * Prompts noted while one batch of submits resolves go to the history together (a microtask after them), so a burst
 * group-committed by the submit batcher does not pay a commit each for its history, and nothing noted can wait past a
 * quit. The history is a convenience: failing to write it never fails the job, which is already stored.
 */
export function createPromptRecorder(store: Pick<JobStore, 'prompts'>): PromptRecorder {
  let pending: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const prompts = pending;
    pending = [];
    try {
      store.prompts.record(prompts);
    } catch {
      // A full disk or a closed store: the jobs are stored; only their recall from the history is lost.
    }
  };
  return {
    record(prompt) {
      pending.push(prompt);
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(flush);
    },
    flush,
  };
}

/** Presets, A1111 styles.csv and prompt history. */
export function createPresetHandlers(store: Pick<JobStore, 'presets' | 'prompts'>, recorder: PromptRecorder): Pick<Handlers, PresetChannels> {
  return {
    'presets.list': async () => ({ items: store.presets.list() }),
    'presets.save': async (input) => ({ preset: store.presets.save(input) }),
    'presets.delete': async ({ id }) => ({ updated: store.presets.delete(id) }),
    'presets.importStyles': async ({ csv }) => {
      const read = readStylesCsv(csv);
      const stored = store.presets.importStyles(read.styles);
      const skipped = [...read.skipped, ...stored.skipped].sort((a, b) => a.line - b.line);
      return { imported: stored.imported, updated: stored.updated, skipped };
    },
    'prompts.history': async ({ search, limit }) => {
      recorder.flush();
      return { items: store.prompts.list(search, limit ?? 100) };
    },
  };
}
