/**
 * Where a sweep's sheet is written: into a folder the person chose (never over an existing file), or into the data
 * dir's exports area for the headless host to serve at /api/sweep-sheet/<file>.png.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, realpath, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors.js';
import { isInside } from '../../base/paths.js';

/** Under the data dir: sheets kept for download. */
export const SHEETS_DIR = join('exports', 'sweep-sheets');
/** A kept sheet older than this is removed when the next one is written (a download is taken at once). */
const KEEP_MS = 24 * 60 * 60 * 1000;
const MAX_TRIES = 10_000;
/** `<ascii slug>-z<page>-<12 hex of the sweep id>.png`: the only names the download route answers. */
export const SHEET_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)-z([1-9][0-9]{0,3})-([0-9a-f]{12})\.png$/;

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** A sweep's name as a file name on any system: no path or reserved characters, not too long, never empty. */
export function sheetFileStem(name: string): string {
  const cleaned = name
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s-]+|[.\s-]+$/g, '');
  const short = Array.from(cleaned).slice(0, 80).join('').trim();
  if (short === '') return 'sweep';
  return RESERVED.test(short) ? `sweep-${short}` : short;
}

/** `<sweep name>-z<page>.png`, the page counted from 1 as a person counts them. */
export function sheetFileName(name: string, z: number): string {
  return `${sheetFileStem(name)}-z${z + 1}.png`;
}

/** `name-2.png`, `name-3.png`…: the name after `name.png` is taken. */
export function numberedName(name: string, n: number): string {
  return n === 1 ? name : name.replace(/\.png$/, `-${n}.png`);
}

async function writeDurably(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A folder a sheet may go into: one that exists, outside Atelier's own data folder (followed through links). */
export async function checkSheetFolder(folder: string, dataDir: string): Promise<void> {
  const info = await stat(folder).catch(() => null);
  if (info === null || !info.isDirectory())
    throw new AppError('invalid_request', `${folder} is not a folder Atelier can write to.`, {
      details: { fields: { folder: 'Choose an existing folder.' } },
    });
  const [real, data] = await Promise.all([realpath(folder), realpath(dataDir).catch(() => dataDir)]);
  if (isInside(data, real))
    throw new AppError(
      'invalid_request',
      `${folder} is inside Atelier's own data folder: choose a folder outside it.`,
      {
        details: { fields: { folder: 'Choose a folder outside the library.' } },
      },
    );
}

/**
 * Writes the sheet whole into `folder` under `name` or `name-2`, `name-3`…: written to a hidden temporary file
 * first, then linked under its name (a link never replaces an existing file); a disk without hard links gets an
 * exclusive copy instead.
 */
export async function writeSheetToFolder(folder: string, name: string, bytes: Uint8Array): Promise<string> {
  const temp = join(folder, `.${randomBytes(6).toString('hex')}.atelier-sheet.tmp`);
  await writeDurably(temp, bytes);
  try {
    for (let n = 1; n <= MAX_TRIES; n += 1) {
      const path = join(folder, numberedName(name, n));
      try {
        await link(temp, path).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST') throw error;
          await copyFile(temp, path, constants.COPYFILE_EXCL);
        });
        return path;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new Error(`Every name like ${name} is taken in ${folder}.`);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** The kept sheet's file name: one per sweep and page, so making it again replaces the previous one. */
export function keptSheetName(name: string, z: number, sweepId: string): string {
  const ascii = name
    .normalize('NFKD')
    // Accents apart from their letters (NFKD), then dropped: Été → ete.
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .join('-')
    .slice(0, 60)
    .replace(/-+$/, '');
  const hex = sweepId.replace(/[^0-9a-f]/gi, '').toLowerCase();
  return `${ascii === '' ? 'sweep' : ascii}-z${z + 1}-${hex.slice(-12).padStart(12, '0')}.png`;
}

/** Keeps the sheet under the data dir (written then renamed into place), removing day-old sheets; answers its name. */
export async function keepSheet(dataDir: string, fileName: string, bytes: Uint8Array, now: number): Promise<string> {
  const dir = join(dataDir, SHEETS_DIR);
  await mkdir(dir, { recursive: true });
  for (const old of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, old);
    const info = await stat(path).catch(() => null);
    if (info !== null && info.isFile() && now - info.mtimeMs > KEEP_MS) await unlink(path).catch(() => undefined);
  }
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeDurably(temp, bytes);
    await rename(temp, join(dir, fileName));
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return fileName;
}

/** A kept sheet by the name in its URL: its path and the name a download saves it as; null for any other name. */
export function keptSheet(dataDir: string, fileName: string): { path: string; downloadName: string } | null {
  const match = SHEET_FILE.exec(fileName);
  if (match === null) return null;
  return { path: join(dataDir, SHEETS_DIR, fileName), downloadName: `${match[1]}-z${match[2]}.png` };
}
