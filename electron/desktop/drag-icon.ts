import sharp from 'sharp';

export const DRAG_ICON_SIZE = 96;

/**
 * The drag's icon as PNG bytes: Electron's nativeImage reads PNG and JPEG only, and thumbnails are WebP (so are
 * some originals). Null when the file cannot be decoded; the caller falls back.
 */
export async function dragIconPng(path: string): Promise<Buffer | null> {
  try {
    return await sharp(path, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: DRAG_ICON_SIZE, height: DRAG_ICON_SIZE, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    return null;
  }
}
