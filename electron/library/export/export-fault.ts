/** Why an export stopped, in the person's words: a disk fault names the export's folder, not the library's. */
import { storageFaultOf } from '../../base/storage-fault.js';

export interface ExportProgress {
  /** The folder chosen; undefined for a download. */
  folder: string | undefined;
  format: 'zip' | 'folder';
  done: number;
  total: number;
}

export function exportFaultMessage(error: unknown, at: ExportProgress): string {
  const where = at.folder === undefined ? 'the download' : at.folder;
  // A .zip cut short is removed (./exporter.ts): only a folder keeps what was written.
  const sofar =
    at.format === 'zip'
      ? 'the unfinished .zip was removed'
      : `${at.done} of ${at.total} ${at.total === 1 ? 'image was' : 'images were'} exported`;
  switch (storageFaultOf(error)) {
    case 'disk_full':
    case 'quota':
      return `The export stopped: the disk holding ${where} is full (${sofar}). Free some space and export again.`;
    case 'read_only':
      return `The export stopped: ${where} is on a read-only disk (${sofar}). Choose another folder.`;
    case 'no_permission':
      return `The export stopped: Atelier is not allowed to write into ${where} (${sofar}). Choose another folder.`;
    case 'missing':
    case 'io':
      return `The export stopped: ${where} could not be written (was its drive disconnected?) (${sofar}).`;
    default:
      return `The export stopped: ${error instanceof Error ? error.message : String(error)}`;
  }
}
