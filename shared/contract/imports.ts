/** Importing and watching folders of images made by any tool: requests, progress and what is read. */
import { z } from 'zod';
import { CONTROL_CHARS, Id } from './common.js';

/** The tool a file came from; the history's `source` filter. */
export const IMAGE_SOURCES = [
  'atelier',
  'a1111',
  'comfyui',
  'invokeai',
  'fooocus',
  'novelai',
  'swarmui',
  'easydiffusion',
  'midjourney',
  'civitai',
  'ruinedfooocus',
  'drawthings',
  'stabilitymatrix',
  'tensorart',
  'huggingface',
  'ppdiffusers',
  'unknown',
] as const;
export const ImageSource = z.enum(IMAGE_SOURCES, { error: `A source is one of ${IMAGE_SOURCES.join(', ')}.` });
export type ImageSource = z.infer<typeof ImageSource>;

export const IMPORT_MODES = ['link', 'copy'] as const;
export const ImportMode = z.enum(IMPORT_MODES, { error: 'Mode is link (index in place) or copy (into the library).' });
export type ImportMode = z.infer<typeof ImportMode>;

export const IMPORT_STATUSES = ['running', 'paused', 'completed', 'cancelled', 'failed'] as const;
export const ImportStatus = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof ImportStatus>;

/** An absolute path on this machine (POSIX or Windows), as the person typed or picked it. */
export const AbsolutePath = z
  .string({ error: 'A path is text.' })
  .min(1, 'A path cannot be empty.')
  .max(4_096, 'A path is at most 4,096 characters.')
  .refine((s) => !CONTROL_CHARS.test(s), 'A path cannot contain control characters.')
  .refine(
    (s) => s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s) || s.startsWith('\\\\'),
    'Give the full path of a folder or file, e.g. /home/you/outputs.',
  );

export const ImportRequest = z.strictObject({
  paths: z.array(AbsolutePath).min(1, 'Choose at least one folder or file.').max(1_000, 'At most 1,000 paths at once.'),
  mode: ImportMode.default('link'),
  watch: z.boolean().default(false),
});
export type ImportRequest = z.infer<typeof ImportRequest>;

const count = z.number().int().min(0);

/** A file that was not imported, and why, in words: skipped (not an image, empty) or failed (an image that could not be read). */
export const ImportProblem = z.object({ path: z.string(), reason: z.string(), status: z.enum(['skipped', 'failed']) });
export type ImportProblem = z.infer<typeof ImportProblem>;

export const ImportCounts = z.object({
  /** Files found so far (the scan may still be going: `scanning`). */
  found: count,
  imported: count,
  /** Files whose content (SHA-256) the library already had: one image, another known location. */
  duplicates: count,
  /** Files that are not images Atelier reads (by content, never the extension). */
  skipped: count,
  /** Files that could not be read at all (gone, unreadable, truncated). */
  failed: count,
});

export const ImportProgressEvent = ImportCounts.extend({
  id: Id,
  status: ImportStatus,
  scanning: z.boolean(),
  ratePerSecond: z.number().min(0).optional(),
  etaMs: count.optional(),
});
export type ImportProgressEvent = z.infer<typeof ImportProgressEvent>;

export const ImportSummary = ImportProgressEvent.extend({
  paths: z.array(z.string()),
  mode: ImportMode,
  watch: z.boolean(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  finishedAt: z.number().int().optional(),
  /** The newest files that were skipped or failed, with their reasons (all of them are kept in the database). */
  problems: z.array(ImportProblem),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

/** A folder (or single file) the person imported: its files may be served, and it may be watched. */
export const LibraryFolder = z.object({
  id: Id,
  path: z.string(),
  mode: ImportMode,
  watch: z.boolean(),
  /** 'watching' while a live watcher runs; 'failed' when the folder is gone or cannot be watched. */
  watchState: z.enum(['off', 'watching', 'failed']),
  createdAt: z.number().int(),
  /** Its images outside the trash: what Remove from library moves there. */
  images: count,
  /** Known files no longer found where they were: marked, never dropped. */
  missing: count,
  /** A single imported file, not a folder: there is nothing to watch. */
  isFile: z.boolean().optional(),
});
export type LibraryFolder = z.infer<typeof LibraryFolder>;

export const RemoveFolder = z.strictObject({
  id: Id,
  /** Removing a folder never deletes its files: only `false` is accepted here. */
  deleteFiles: z.literal(false, { error: 'Removing a folder never deletes its files from disk.' }).optional(),
});

/** Watch switched on or off for an imported folder, later: persisted, and the watcher starts or stops with it. */
export const SetFolderWatch = z.strictObject({
  id: Id,
  watch: z.boolean({ error: 'Watch is on (true) or off (false).' }),
});

/** A tool the library holds images of, and how many (counted up to a cap: `capped` past it). */
export const SourceCount = z.object({ source: ImageSource, images: count, capped: z.boolean() });
export type SourceCount = z.infer<typeof SourceCount>;

export const RemovedFolder = z.object({
  /** Imported jobs moved to the trash with the folder (their originals stay where they are). */
  trashed: count,
});

export const LoraRef = z.object({ name: z.string(), weight: z.number().optional(), hash: z.string().optional() });

/** One of the files' metadata texts exactly as the file holds it (PNG keyword, EXIF tag, XMP, sidecar). */
export const RawText = z.object({ key: z.string(), text: z.string() });

/** What an imported image's file said beyond the request fields, and where the file is. */
export const ImportedMetadata = z.object({
  /** The model and sampler as the tool named them (the request keeps them only for a provider that has them). */
  model: z.string().optional(),
  sampler: z.string().optional(),
  scheduler: z.string().optional(),
  modelHash: z.string().optional(),
  loras: z.array(LoraRef).optional(),
  denoise: z.number().optional(),
  /** Guidance a distilled model takes as an input (Flux's FluxGuidance), beside the CFG. */
  distilledGuidance: z.number().optional(),
  description: z.string().optional(),
  /** Other generations the file describes (a ComfyUI graph with several samplers). */
  alternatives: z.array(z.record(z.string(), z.unknown())).optional(),
  /** Later passes over the image (refiner, hires fix, detailer, upscale), in the order they ran, with their settings. */
  passes: z
    .array(z.object({ role: z.string(), classType: z.string(), settings: z.record(z.string(), z.unknown()) }))
    .optional(),
  raw: z.array(RawText),
  /** Fields that were there but could not be read. */
  problems: z.array(z.string()),
  /** Every place the same file (same SHA-256) was found, and whether it is still there. */
  locations: z.array(z.object({ path: z.string(), missing: z.boolean() })),
  /** link: the original stays where it is; copy: a copy lives in the library. */
  mode: ImportMode,
});
export type ImportedMetadata = z.infer<typeof ImportedMetadata>;

/**
 * Re-reading imported files' settings with newer readers (after an upgrade, or when a person asks): running while
 * files are read, paused while an import reads files, idle when every imported file is read by these readers.
 */
export const RereadProgress = z.object({
  state: z.enum(['idle', 'running', 'paused']),
  /** Imported images still to re-read, of all imported images. */
  left: z.number().int().min(0),
  imported: z.number().int().min(0),
  /** Since Atelier started: files re-read, and files that could not be (gone, changed): those keep their read. */
  done: z.number().int().min(0),
  failed: z.number().int().min(0),
});
export type RereadProgress = z.infer<typeof RereadProgress>;
