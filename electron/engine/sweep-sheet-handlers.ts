import type { Handlers, SweepDetail } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { storageFaultOf } from '../base/storage-fault.js';
import type { JobStore } from '../db/types.js';
import { RefusedRead } from '../library/originals/guarded-open.js';
import { imageSourceOf } from '../library/originals/image-source.js';
import type { OriginalReader } from '../library/originals/original-reader.js';
import { renderSweepSheet, sheetPages } from '../library/export/sweep-sheet-render.js';
import {
  checkSheetFolder,
  keepSheet,
  keptSheetName,
  sheetFileName,
  writeSheetToFolder,
} from '../library/export/sweep-sheet-file.js';
import { APP_VERSION } from './job-media.js';

/** Where the headless host serves a kept sheet (electron/serve/sweep-sheet-download.ts). */
export const SWEEP_SHEET_URL = '/api/sweep-sheet/';

export interface SweepSheetDeps {
  /** The sweep as `sweeps.get` answers it (not_found for an unknown id). */
  getSweep(id: string): Promise<SweepDetail>;
  /** An image's original bytes through the guarded read; null when it is gone or refused. */
  readImage(imageId: string): Promise<Uint8Array | null>;
  dataDir: string;
  now(): number;
  /** Written into the sheet's metadata; this build's version when absent. */
  appVersion?: string;
}

/** An image's own bytes through the guarded read (the exporter's way); a gone or refused file answers null. */
export function originalBytes(
  dataDir: string,
  store: Pick<JobStore, 'image' | 'imports'>,
  reader: Pick<OriginalReader, 'read'>,
): (imageId: string) => Promise<Uint8Array | null> {
  return async (imageId) => {
    const source = imageSourceOf(dataDir, store, imageId);
    if (source === null) return null;
    try {
      return (await reader.read(source)).bytes;
    } catch (error) {
      if (error instanceof RefusedRead) return null;
      throw error;
    }
  };
}

function writeFault(error: unknown, where: string): unknown {
  switch (storageFaultOf(error)) {
    case 'disk_full':
    case 'quota':
      return new AppError('storage', `The sheet was not saved: the disk holding ${where} is full.`, { cause: error });
    case 'read_only':
    case 'no_permission':
      return new AppError('storage', `The sheet was not saved: Atelier may not write into ${where}.`, {
        cause: error,
      });
    case 'missing':
    case 'io':
      return new AppError('storage', `The sheet was not saved: ${where} could not be written (is its drive there?).`, {
        cause: error,
      });
    default:
      return error;
  }
}

/** `sweeps.sheet`: one Z page of a sweep as a labelled PNG, written to a folder or kept for download. */
export function createSweepSheetHandlers(deps: SweepSheetDeps): Pick<Handlers, 'sweeps.sheet'> {
  return {
    'sweeps.sheet': async ({ id, z, folder }) => {
      const sweep = await deps.getSweep(id);
      const pages = sheetPages(sweep);
      if (z >= pages) {
        const message = `This sweep has ${pages === 1 ? 'one page' : `${pages} pages`}: choose a page from 0 to ${pages - 1}.`;
        throw new AppError('invalid_request', message, { details: { fields: { z: message } } });
      }
      if (folder !== undefined) await checkSheetFolder(folder, deps.dataDir);
      const sheet = await renderSweepSheet(sweep, z, {
        readImage: deps.readImage,
        appVersion: deps.appVersion ?? APP_VERSION,
      });
      const size = { width: sheet.width, height: sheet.height };
      if (folder !== undefined) {
        const path = await writeSheetToFolder(folder, sheetFileName(sweep.name, z), sheet.png).catch(
          (error: unknown) => {
            throw writeFault(error, folder);
          },
        );
        return { path, ...size };
      }
      const name = await keepSheet(deps.dataDir, keptSheetName(sweep.name, z, sweep.id), sheet.png, deps.now()).catch(
        (error: unknown) => {
          throw writeFault(error, deps.dataDir);
        },
      );
      return { download: `${SWEEP_SHEET_URL}${name}`, ...size };
    },
  };
}
