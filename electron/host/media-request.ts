import { realpath, stat } from 'node:fs/promises';
import { isInside } from '../base/paths.js';
import { MEDIA_KINDS, MEDIA_SCHEME, type MediaKindName } from '../../shared/bridge.js';
import type { Engine } from '../engine/types.js';
import { MAX_ORIGINAL_BYTES } from '../library/originals/image-source.js';
import { createOriginalReader, type OriginalReader } from '../library/originals/original-reader.js';
import { createReadPool } from '../library/originals/read-pool.js';

export interface MediaRequest {
  kind: MediaKindName;
  imageId: string;
}

/**
 * Ids are matched on the raw, undecoded text: letters, digits, - and _ only, so `..`, `%2e`, `%2f`, backslashes,
 * null bytes and any other trick cannot even reach the store.
 */
const ID = '[A-Za-z0-9_-]{1,128}';
const KINDS = MEDIA_KINDS.join('|');
const SCHEME_URL = new RegExp(`^${MEDIA_SCHEME}://(${KINDS})/(${ID})/?(?:\\?[^#]*)?$`);
const HTTP_PATH = new RegExp(`^/media/(${KINDS})/(${ID})$`);

function toRequest(match: RegExpExecArray | null): MediaRequest | null {
  if (match === null) return null;
  return { kind: match[1] as MediaKindName, imageId: match[2] as string };
}

/** `atelier-media://thumb/<id>` (Electron) → {kind, imageId}, or null for anything else. */
export function parseMediaUrl(url: string): MediaRequest | null {
  return toRequest(SCHEME_URL.exec(url));
}

/** `/media/thumb/<id>` (headless host, pathname without query) → {kind, imageId}, or null. */
export function parseMediaPath(pathname: string): MediaRequest | null {
  return toRequest(HTTP_PATH.exec(pathname));
}

export interface ResolvedMedia {
  path: string;
  mime: string;
  size: number;
  mtimeMs: number;
  /** A linked original's bytes, read through the guarded open and checked against its hash: serve these, not the path. */
  bytes?: Uint8Array;
}

// One reader thread for both hosts' linked originals (idle, it keeps nothing alive); the budget is the process's.
let linkedReader: OriginalReader | undefined;
const reader = (): OriginalReader => (linkedReader ??= createOriginalReader({ pool: createReadPool(1) }));

export { isInside };

// The data dir's real path, resolved once per dir: a grid of thumbnails asked for it on every request. Should the
// dir be swapped for a link elsewhere later, files resolve outside the cached root and are refused (fails closed).
const roots = new Map<string, Promise<string>>();
function realRoot(dataDir: string): Promise<string> {
  let root = roots.get(dataDir);
  if (root === undefined) {
    root = realpath(dataDir);
    roots.set(dataDir, root);
    // A failure is not cached: the next request tries again.
    root.catch(() => roots.delete(dataDir));
  }
  return root;
}

/**
 * Asks the engine for the file, then checks — after following symlinks — that it is a regular file inside the
 * data dir; a linked original is read through the guarded open instead (../library/originals/guarded-open.ts) and
 * comes back as verified bytes. Anything else is null, which both hosts answer with 404.
 */
export async function resolveMediaFile(
  engine: Pick<Engine, 'dataDir' | 'resolveMedia'>,
  request: MediaRequest,
): Promise<ResolvedMedia | null> {
  const file = engine.resolveMedia(request.kind, request.imageId);
  if (file === null) return null;
  if (file.root !== undefined) {
    // Not Atelier's file: the guarded read (inside its folder, a regular file, bounded, the recorded hash) or nothing.
    const target = {
      path: file.path,
      root: file.root,
      maxBytes: MAX_ORIGINAL_BYTES,
      ...(file.sha256 === undefined ? {} : { sha256: file.sha256 }),
    };
    const read = await reader()
      .read(target)
      .catch(() => null);
    return read === null
      ? null
      : { path: file.path, mime: file.mime, size: read.size, mtimeMs: read.mtimeMs, bytes: read.bytes };
  }
  try {
    const [root, real] = await Promise.all([
      file.root === undefined ? realRoot(engine.dataDir) : realpath(file.root),
      realpath(file.path),
    ]);
    if (!isInside(root, real) || (real === root && file.root === undefined)) return null;
    const info = await stat(real);
    if (!info.isFile()) return null;
    return { path: real, mime: file.mime, size: info.size, mtimeMs: info.mtimeMs };
  } catch {
    // Gone from disk between the lookup and now: the same answer as an unknown id.
    return null;
  }
}

/** Originals and thumbnails are content-addressed and never change; previews are replaced while a job runs. */
export function mediaCacheControl(kind: MediaKindName): string {
  return kind === 'preview' ? 'no-store' : 'private, max-age=31536000, immutable';
}
