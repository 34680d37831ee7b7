/** The model library: checkpoints, LoRAs, embeddings and VAEs from every server, shown through the person's images. */
import { z } from 'zod';
import { Id, ProviderId } from './common.js';

export const MODEL_KINDS = ['checkpoint', 'lora', 'embedding', 'vae'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** One file as a server lists it (A1111's endpoints, ComfyUI's loader nodes). Every string is the server's: untrusted. */
export const ServerModel = z.object({
  kind: z.enum(MODEL_KINDS),
  /** The name a request sends back to this server. */
  name: z.string().min(1).max(200),
  /** A content hash where the server gives one (A1111's sha256, or its short hash): recognises one file across servers. */
  hash: z.string().max(128).optional(),
  /** sd15, sdxl, flux… where the server says. */
  baseModel: z.string().max(64).optional(),
  /** Training tags, most used first (A1111's LoRA metadata ss_tag_frequency). */
  triggerWords: z.array(z.string().max(100)).max(32).optional(),
});
export type ServerModel = z.infer<typeof ServerModel>;

export const LibraryModel = z.object({
  /** Stable across servers and restarts: `<kind>:<hash>` where hashed, else `<kind>:<folded name>`. */
  key: z.string(),
  kind: z.enum(MODEL_KINDS),
  /** The name shown: the file's name without folders and extension. */
  name: z.string(),
  hash: z.string().optional(),
  baseModel: z.string().optional(),
  /** Every connected server that has it, with the name that server gives it. Empty: only known from images. */
  servers: z.array(z.object({ provider: ProviderId, name: z.string() })),
  triggerWords: z.array(z.string()),
  note: z.string().optional(),
  /** Images in the library (not in the trash) made with it, and when the newest was made. */
  imageCount: z.number().int().min(0),
  lastUsedAt: z.number().int().optional(),
  /** The person's own best-rated image made with it (then newest). */
  preview: z.object({ imageId: Id, jobId: Id, rating: z.number().int().optional() }).optional(),
});
export type LibraryModel = z.infer<typeof LibraryModel>;

export const MODEL_SORTS = ['used', 'recent', 'name'] as const;

export const ModelLibraryQuery = z.strictObject({
  /** Words of the name, base model or trigger words. */
  search: z.string().max(200, 'A search is at most 200 characters.').optional(),
  kind: z.enum(MODEL_KINDS).optional(),
  baseModel: z.string().max(64).optional(),
  /** used: most images first; recent: newest use first; name: A to Z. */
  sort: z.enum(MODEL_SORTS).default('used'),
  limit: z.number().int().min(1).max(5_000).default(2_000),
});
export type ModelLibraryQuery = z.infer<typeof ModelLibraryQuery>;

export const ModelLibrary = z.object({
  items: z.array(LibraryModel),
  /** How many match before the limit. */
  total: z.number().int().min(0),
  /** The base models present, for the filter. */
  baseModels: z.array(z.string()),
});
export type ModelLibrary = z.infer<typeof ModelLibrary>;

export const SetModelNote = z.strictObject({
  key: z.string().min(1).max(300),
  /** Empty removes it. */
  note: z.string().max(2_000, 'A note is at most 2,000 characters.'),
});
export type SetModelNote = z.infer<typeof SetModelNote>;
