/** Export: a selection or every image of a query, as a ZIP or into a folder, originals untouched. */
import { z } from 'zod';
import { Id } from './common.js';
import { ImageIds, MatchQuery } from './curation.js';
import { AbsolutePath } from './imports.js';

export const EXPORT_FORMATS = ['zip', 'folder'] as const;
export const EXPORT_MANIFESTS = ['none', 'json', 'csv'] as const;
export const EXPORT_STATUSES = ['running', 'ready', 'completed', 'cancelled', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/**
 * What to export. A ZIP with a folder is written there as one .zip file; a ZIP without one is `ready` and streamed
 * when downloaded (the headless host's GET /api/export/<id>.zip). A folder export copies the originals into it.
 */
export const StartExport = z
  .strictObject({
    target: z
      .strictObject({ ids: ImageIds.optional(), query: MatchQuery.optional() })
      .refine((t) => (t.ids === undefined) !== (t.query === undefined), {
        message: 'Export either ids (the selected images) or query (every image it matches), not both.',
        path: ['ids'],
      }),
    format: z.enum(EXPORT_FORMATS, { error: 'Format is zip or folder.' }),
    folder: AbsolutePath.optional(),
    manifest: z.enum(EXPORT_MANIFESTS, { error: 'Manifest is none, json or csv.' }).default('none'),
  })
  .refine((v) => v.format !== 'folder' || v.folder !== undefined, {
    message: 'Choose the folder to export into.',
    path: ['folder'],
  });
export type StartExport = z.infer<typeof StartExport>;

const count = z.number().int().min(0);

export const ExportProgressEvent = z.object({
  id: Id,
  status: z.enum(EXPORT_STATUSES),
  /** Images the export covers; done counts exported and missing ones alike. */
  total: count,
  done: count,
  /** Bytes of originals written so far. */
  bytes: count,
  /** Originals no longer found (listed in the manifest as missing; the rest still export). */
  missing: count,
});
export type ExportProgressEvent = z.infer<typeof ExportProgressEvent>;

export const ExportSummary = ExportProgressEvent.extend({
  format: z.enum(EXPORT_FORMATS),
  manifest: z.enum(EXPORT_MANIFESTS),
  /** The .zip file or the folder written to (absent: a ZIP streamed on download). */
  path: z.string().optional(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().optional(),
  /** The first missing originals' names in the export (all of them are in the manifest). */
  missingNames: z.array(z.string()),
  error: z.string().optional(),
});
export type ExportSummary = z.infer<typeof ExportSummary>;
