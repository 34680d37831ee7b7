/** The export channels (shared/contract/export.ts): start an export, list this session's exports, cancel one. */
import type { Handlers } from '../../shared/contract.js';
import type { Exporter } from '../library/export/exporter.js';

export type ExportChannels = 'export.start' | 'export.list' | 'export.cancel';

export function createExportHandlers(
  exporter: Pick<Exporter, 'start' | 'list' | 'cancel'>,
): Pick<Handlers, ExportChannels> {
  return {
    'export.start': async (input) => ({ export: await exporter.start(input) }),
    'export.list': async () => ({ items: exporter.list() }),
    'export.cancel': async ({ id }) => ({ export: await exporter.cancel(id) }),
  };
}
