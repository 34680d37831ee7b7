import { ClipboardItem, clipboard, dialog, nativeImage, shell, type BrowserWindow } from 'electron';
import type { Handlers } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import type { Engine } from '../engine/types.js';
import { resolveMediaFile } from '../host/media-request.js';
import { dragIconPng } from '../desktop/drag-icon.js';
import { DragMemory, resolveDragFiles } from '../desktop/drag-out.js';
import { pickFolder, pickImportPaths } from './pick-paths.js';
import { copyAtomically, suggestedName } from '../desktop/save-copy.js';

type DesktopChannel =
  | 'desktop.reveal'
  | 'desktop.copyImage'
  | 'desktop.saveAs'
  | 'desktop.startDrag'
  | 'desktop.pickImportPaths'
  | 'desktop.pickFolder'
  | 'desktop.droppedImages';
export type DesktopHandlers = Pick<Handlers, DesktopChannel>;

/** The desktop touches, over the same checked media resolution the media scheme uses. */
export function createDesktopHandlers(
  engine: Pick<Engine, 'dataDir' | 'resolveMedia'>,
  window: () => BrowserWindow | null,
): DesktopHandlers {
  const drags = new DragMemory();
  const original = async (imageId: string) => {
    const file = await resolveMediaFile(engine, { kind: 'image', imageId });
    if (file === null) throw new AppError('not_found', 'That image is not in the library (or its file is missing).');
    return file;
  };
  return {
    async 'desktop.reveal'({ imageId }) {
      shell.showItemInFolder((await original(imageId)).path);
      return {};
    },
    async 'desktop.copyImage'({ imageId }) {
      const image = nativeImage.createFromPath((await original(imageId)).path);
      if (image.isEmpty()) throw new AppError('storage', 'That image could not be read for the clipboard.');
      // Electron 45's clipboard takes W3C-style items; PNG is the one image type every OS clipboard accepts.
      const png = new Blob([new Uint8Array(image.toPNG())], { type: 'image/png' });
      await clipboard.write([new ClipboardItem({ 'image/png': png })]);
      return {};
    },
    async 'desktop.saveAs'({ imageId }) {
      const file = await original(imageId);
      const win = window();
      const options = { defaultPath: suggestedName(imageId, file.mime) };
      const choice = win === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(win, options);
      if (choice.canceled || choice.filePath === undefined || choice.filePath === '') return { saved: false };
      try {
        await copyAtomically(file.path, choice.filePath);
      } catch (error) {
        throw new AppError('storage', `The image could not be saved there: ${(error as Error).message}`, {
          cause: error,
        });
      }
      return { saved: true };
    },
    async 'desktop.startDrag'({ imageId, imageIds }) {
      const asked = imageIds ?? (imageId === undefined ? [] : [imageId]);
      const files = await resolveDragFiles(asked, (id) => resolveMediaFile(engine, { kind: 'image', imageId: id }));
      const first = files[0];
      if (first === undefined) {
        throw new AppError(
          'not_found',
          asked.length === 1
            ? 'That image is not in the library (or its file is missing).'
            : 'None of those images’ files are in the library any more.',
        );
      }
      const win = window();
      if (win === null) throw new AppError('conflict', 'There is no window to drag from.');
      const thumb = await resolveMediaFile(engine, { kind: 'thumb', imageId: first.imageId });
      const png = (thumb === null ? null : await dragIconPng(thumb.path)) ?? (await dragIconPng(first.path));
      const icon = png === null ? nativeImage.createFromPath(first.path) : nativeImage.createFromBuffer(png);
      drags.remember(files);
      try {
        // `file` is the one every OS reads; `files` carries the whole selection where the OS takes several.
        win.webContents.startDrag({ file: first.path, files: files.map((f) => f.path), icon });
      } catch (error) {
        throw new AppError('storage', `The drag could not start: ${(error as Error).message}`, { cause: error });
      }
      return { files: files.length, skipped: new Set(asked).size - files.length };
    },
    async 'desktop.droppedImages'({ paths }) {
      return { images: drags.match(paths) };
    },
    async 'desktop.pickFolder'() {
      const win = window();
      return pickFolder((options) =>
        win === null ? dialog.showOpenDialog(options) : dialog.showOpenDialog(win, options),
      );
    },
    async 'desktop.pickImportPaths'() {
      const win = window();
      return pickImportPaths((options) =>
        win === null ? dialog.showOpenDialog(options) : dialog.showOpenDialog(win, options),
      );
    },
  };
}
