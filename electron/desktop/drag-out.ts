import type { ResolvedMedia } from '../host/media-request.js';

export interface DragFile {
  imageId: string;
  path: string;
}

/** Each image's stored original, in order; an original gone from disk is skipped, not an error for the rest. */
export async function resolveDragFiles(
  imageIds: readonly string[],
  resolve: (imageId: string) => Promise<ResolvedMedia | null>,
): Promise<DragFile[]> {
  const unique = [...new Set(imageIds)];
  const resolved = await Promise.all(unique.map(async (imageId) => ({ imageId, file: await resolve(imageId) })));
  return resolved.flatMap(({ imageId, file }) => (file === null ? [] : [{ imageId, path: file.path }]));
}

/**
 * The files of the last drag-out. A drop back in the window (on a board, or anywhere) carries only paths; they are
 * matched against what main itself put in the drag, so a page cannot name an arbitrary file as a library image.
 */
export class DragMemory {
  private byPath = new Map<string, string>();

  remember(files: readonly DragFile[]): void {
    this.byPath = new Map(files.map((f) => [f.path, f.imageId]));
  }

  match(paths: readonly string[]): DragFile[] {
    const seen = new Set<string>();
    return paths.flatMap((path) => {
      const imageId = this.byPath.get(path);
      if (imageId === undefined || seen.has(path)) return [];
      seen.add(path);
      return [{ path, imageId }];
    });
  }
}
