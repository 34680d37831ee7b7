import type { OpenDialogOptions, OpenDialogReturnValue } from 'electron';

/** Folders and files at once, several of them: an artist's outputs are usually a folder, sometimes a few files. */
export const PICK_IMPORT_OPTIONS: OpenDialogOptions = {
  title: 'Import images into Atelier',
  buttonLabel: 'Import',
  properties: ['openDirectory', 'openFile', 'multiSelections'],
  filters: [{ name: 'Images', extensions: ['png', 'jpg', 'jpeg', 'webp'] }],
};

/** The chosen paths, or none when the person closed the picker. */
export async function pickImportPaths(show: (options: OpenDialogOptions) => Promise<OpenDialogReturnValue>): Promise<{ paths: string[] }> {
  const choice = await show(PICK_IMPORT_OPTIONS);
  if (choice.canceled) return { paths: [] };
  return { paths: choice.filePaths.filter((p) => p !== '') };
}
