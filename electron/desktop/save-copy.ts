import { randomBytes } from 'node:crypto';
import { copyFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Copies an image to where the person chose, through a temp file in the same folder and a rename: the destination
 * is either the old file or the complete new one, never half written.
 */
export async function copyAtomically(source: string, destination: string): Promise<void> {
  const temp = join(dirname(destination), `.${basename(destination)}.${randomBytes(6).toString('hex')}.part`);
  try {
    await copyFile(source, temp);
    await rename(temp, destination);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** A file name for Save as…: the image id and the extension its type implies. */
export function suggestedName(imageId: string, mime: string): string {
  const ext = mime === 'image/jpeg' ? 'jpg' : mime === 'image/webp' ? 'webp' : mime === 'image/avif' ? 'avif' : 'png';
  return `atelier-${imageId}.${ext}`;
}
