import { stat } from 'node:fs/promises';
import type { OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import { AbsolutePath } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';

/** Folders and files at once, several of them: an artist's outputs are usually a folder, sometimes a few files. */
export const PICK_IMPORT_OPTIONS: OpenDialogOptions = {
  title: 'Import images into Atelier',
  buttonLabel: 'Import',
  properties: ['openDirectory', 'openFile', 'multiSelections'],
  filters: [{ name: 'Images', extensions: ['png', 'jpg', 'jpeg', 'webp', 'avif'] }],
};

/** The chosen paths, or none when the person closed the picker. */
export async function pickImportPaths(
  show: (options: OpenDialogOptions) => Promise<OpenDialogReturnValue>,
): Promise<{ paths: string[] }> {
  const choice = await show(PICK_IMPORT_OPTIONS);
  if (choice.canceled) return { paths: [] };
  return { paths: choice.filePaths.filter((p) => p !== '') };
}

/** One folder to export into, made in the picker if the person wants a new one. */
export const PICK_FOLDER_OPTIONS: OpenDialogOptions = {
  title: 'Export to folder',
  buttonLabel: 'Export here',
  properties: ['openDirectory', 'createDirectory'],
};

/** The chosen folder, checked as export.start checks it (a full path, a folder); null when the picker was closed. */
export async function pickFolder(
  show: (options: OpenDialogOptions) => Promise<OpenDialogReturnValue>,
): Promise<{ path: string | null }> {
  const choice = await show(PICK_FOLDER_OPTIONS);
  const chosen = choice.filePaths[0];
  if (choice.canceled || chosen === undefined || chosen === '') return { path: null };
  const parsed = AbsolutePath.safeParse(chosen);
  if (!parsed.success)
    throw new AppError(
      'invalid_request',
      `${chosen} is not a folder Atelier can export into: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  const info = await stat(parsed.data).catch(() => null);
  if (info === null || !info.isDirectory())
    throw new AppError('invalid_request', `${chosen} is not a folder Atelier can export into.`);
  return { path: parsed.data };
}
