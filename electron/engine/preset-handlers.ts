import type { Handlers } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import { readStylesCsv } from '../library/styles-csv.js';

export type PresetChannels =
  'presets.list' | 'presets.save' | 'presets.delete' | 'presets.importStyles' | 'prompts.history';

/** Presets, A1111 styles.csv and prompt history. */
export function createPresetHandlers(store: Pick<JobStore, 'presets' | 'prompts'>): Pick<Handlers, PresetChannels> {
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
    'prompts.history': async ({ search, limit }) => ({ items: store.prompts.list(search, limit ?? 100) }),
  };
}
