import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import sharp from 'sharp';
import { GenerateRequest, Id } from '../../shared/contract.js';
import { uuidv7 } from '../../shared/ids.js';
import { normalizeSeed } from '../../shared/seed.js';
import type { FileOutcome } from '../db/import-types.js';
import type { RecoveredImage } from '../db/recovered.js';
import { probeFile } from './import/probe-file.js';
import { toImportedImage } from './import/to-imported.js';
import type { JobStore } from '../db/types.js';
import { collectImagePaths } from './image-paths.js';
import { LIBRARY_DIR, countOrphans, nodeMediaFs, shardedFiles, writeThumbnail } from '../media/index.js';
import { readAtelierChunk } from '../media/png/atelier-chunk.js';
import { absolute } from '../media/media-paths.js';

export interface RebuildOutcome {
  jobs: number;
  images: number;
  known: number;
  unreadable: number;
  /** Ids of the jobs recreated, batch by batch (the engine announces them). */
  jobIds: string[];
}

export interface RebuildOptions {
  dataDir: string;
  store: Pick<JobStore, 'imagePathsPage' | 'restoreFromFiles' | 'imports'>;
  now: () => number;
  /** Files read and written per transaction; the event loop runs between batches. */
  batchSize?: number;
  onBatch?(jobIds: string[]): void;
}

const PNG_NAME = /^[0-9a-f]{62}\.png$/;
/** Content-addressed names Atelier gives library files: its own PNGs, and copies of imported PNG, JPEG, WebP and AVIF files. */
const LIBRARY_NAME = /^[0-9a-f]{62}\.(png|jpg|webp|avif)$/;

/** The job one library file records in its own `atelier` chunk, or null when it has none Atelier can use. */
async function recoveredFrom(dataDir: string, rel: string, now: number): Promise<RecoveredImage | null> {
  const bytes = new Uint8Array(await readFile(absolute(dataDir, rel)));
  const chunk = readAtelierChunk(bytes);
  if (chunk === undefined || !Id.safeParse(chunk.jobId).success) return null;
  if (!Number.isInteger(chunk.index) || chunk.index < 0 || !Number.isFinite(chunk.createdAt)) return null;
  const request = GenerateRequest.safeParse(chunk.request);
  if (!request.success) return null;
  const meta = await sharp(bytes).metadata();
  if (meta.width === undefined || meta.height === undefined) return null;
  // Content-addressed: the thumbnail made then has the same name now, and one already there is kept, not rewritten.
  const thumb = await writeThumbnail(dataDir, bytes);
  const { idempotencyKey: _none, ...stored } = request.data;
  return {
    jobId: chunk.jobId,
    createdAt: Math.trunc(chunk.createdAt),
    request: stored,
    provider: typeof chunk.provider === 'string' ? chunk.provider : stored.provider,
    ...(typeof chunk.model === 'string' ? { model: chunk.model } : {}),
    ...(normalizeSeed(chunk.seed) === null ? {} : { seed: normalizeSeed(chunk.seed)! }),
    ...(typeof chunk.revisedPrompt === 'string' ? { revisedPrompt: chunk.revisedPrompt } : {}),
    image: {
      id: uuidv7(now),
      index: chunk.index,
      path: rel,
      // The name is the content's sha256 (library/ab/cdef….png): hashing megabytes again would hold up the loop.
      sha256: rel
        .split('/')
        .slice(1)
        .join('')
        .replace(/\.png$/, ''),
      bytes: bytes.length,
      width: meta.width,
      height: meta.height,
      mime: 'image/png',
      thumbPath: thumb.path,
    },
  };
}

/** A library file that is a copy of an imported image: its settings read again by the tools' readers. */
async function importedCopy(dataDir: string, rel: string): Promise<FileOutcome | null> {
  const probe = await probeFile(absolute(dataDir, rel));
  if (probe.kind !== 'image') return null;
  const image = toImportedImage({ ...probe, path: rel, mode: 'copy', storedPath: rel });
  return { kind: 'imported', seq: 0, path: null, folderId: null, bytes: probe.size, mtimeMs: probe.mtimeMs, image };
}

/** Files the start-up orphan collection set aside in orphans/library/ go back to library/ (never over a file already there). */
async function restoreSetAside(dataDir: string): Promise<number> {
  const { paths } = await countOrphans(dataDir);
  let restored = 0;
  for (const rel of paths) {
    const [, root, shard, name] = rel.split('/');
    if (root !== LIBRARY_DIR || shard === undefined || name === undefined || !LIBRARY_NAME.test(name)) continue;
    const target = `${LIBRARY_DIR}/${shard}/${name}`;
    if (existsSync(absolute(dataDir, target))) continue;
    await mkdir(absolute(dataDir, `${LIBRARY_DIR}/${shard}`), { recursive: true });
    await rename(absolute(dataDir, rel), absolute(dataDir, target));
    restored += 1;
  }
  return restored;
}

/**
 * Recreates the history from library/ itself: each PNG's embedded `atelier` chunk holds its job's full request,
 * so every file becomes an image of a succeeded job again (images of one job rejoin it), at its original time.
 * Idempotent: files the history already references are skipped. Files without a readable record stay where they
 * are and are counted. Works in small batches, yielding to the event loop between them.
 */
export async function rebuildFromFiles(options: RebuildOptions): Promise<RebuildOutcome> {
  const { dataDir, store } = options;
  const batchSize = Math.max(1, options.batchSize ?? 16);
  await restoreSetAside(dataDir);
  const { referenced } = await collectImagePaths(store);
  const files = (await shardedFiles(nodeMediaFs, dataDir, LIBRARY_DIR)).filter((rel) =>
    LIBRARY_NAME.test(rel.split('/')[2] ?? ''),
  );
  const out: RebuildOutcome = { jobs: 0, images: 0, known: 0, unreadable: 0, jobIds: [] };
  const pending = files.filter((rel) => {
    if (!referenced.has(rel)) return true;
    out.known += 1;
    return false;
  });
  for (let i = 0; i < pending.length; i += batchSize) {
    const batch: RecoveredImage[] = [];
    const copies: FileOutcome[] = [];
    for (const rel of pending.slice(i, i + batchSize)) {
      const entry = PNG_NAME.test(rel.split('/')[2] ?? '')
        ? await recoveredFrom(dataDir, rel, options.now()).catch(() => null)
        : null;
      if (entry !== null) batch.push(entry);
      else {
        // Not an Atelier PNG with its record: a copied import (or a damaged one), read like any other tool's file.
        const copy = await importedCopy(dataDir, rel);
        if (copy === null) out.unreadable += 1;
        else copies.push(copy);
      }
      await yieldToLoop();
    }
    if (copies.length > 0) {
      const created = store.imports.commit(null, copies).created;
      out.jobs += created.length;
      out.images += created.length;
      out.known += copies.length - created.length;
      out.jobIds.push(...created);
      if (created.length > 0) options.onBatch?.(created);
    }
    const before = new Set(out.jobIds);
    const result = store.restoreFromFiles(batch);
    out.jobs += result.jobs;
    out.images += result.images;
    out.known += result.known;
    const fresh = [...new Set(batch.map((e) => e.jobId))].filter((id) => !before.has(id));
    if (result.jobs + result.images > 0) {
      out.jobIds.push(...fresh);
      options.onBatch?.(fresh);
    }
    await yieldToLoop();
  }
  return out;
}
