import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { channels, MAX_DRAG_FILES } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { createFakeEngine, type FakeEngine } from '../../fakes/engine.js';

const electron = vi.hoisted(() => ({
  showOpenDialog: vi.fn(),
  createFromPath: vi.fn(),
  createFromBuffer: vi.fn(),
}));
vi.mock('electron', () => ({
  dialog: { showOpenDialog: electron.showOpenDialog, showSaveDialog: vi.fn() },
  nativeImage: { createFromPath: electron.createFromPath, createFromBuffer: electron.createFromBuffer },
  shell: { showItemInFolder: vi.fn() },
  clipboard: { write: vi.fn() },
  ClipboardItem: class {},
}));
const { createDesktopHandlers } = await import('../../../electron/glue/channels.js');

const id = (n: number) => `0190a6e2-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

describe('the desktop glue', () => {
  let root: string;
  let engine: FakeEngine;
  let startDrag: ReturnType<typeof vi.fn>;
  let win: { webContents: { startDrag: typeof startDrag } } | null;
  let handlers: ReturnType<typeof createDesktopHandlers>;
  const original = (n: number) => join(root, 'data', 'library', `${n}.png`);

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'atelier-desktop-')));
    await mkdir(join(root, 'data', 'library'), { recursive: true });
    engine = createFakeEngine(join(root, 'data'));
    for (const n of [1, 2, 3]) {
      await writeFile(original(n), PNG);
      engine.media.set(`image/${id(n)}`, { path: original(n), mime: 'image/png' });
    }
    startDrag = vi.fn();
    win = { webContents: { startDrag } };
    electron.showOpenDialog.mockReset();
    electron.createFromPath.mockReset().mockImplementation((path: string) => ({ from: path }));
    electron.createFromBuffer.mockReset().mockImplementation((png: Buffer) => ({ png }));
    handlers = createDesktopHandlers(engine, () => win as never);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  describe('desktop.pickFolder', () => {
    it('asks the OS for one folder (a new one may be made there), parented to the window, and returns it', async () => {
      const folder = join(root, 'exports');
      await mkdir(folder);
      electron.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: [folder] });
      expect(await handlers['desktop.pickFolder']({})).toEqual({ path: folder });
      const [parent, options] = electron.showOpenDialog.mock.calls[0]!;
      expect(parent).toBe(win);
      expect(options.properties).toEqual(expect.arrayContaining(['openDirectory', 'createDirectory']));
      expect(options.properties).not.toContain('multiSelections');
    });

    it('returns no path when the picker is closed', async () => {
      electron.showOpenDialog.mockResolvedValue({ canceled: true, filePaths: [join(root, 'data')] });
      expect(await handlers['desktop.pickFolder']({})).toEqual({ path: null });
      electron.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: [] });
      expect(await handlers['desktop.pickFolder']({})).toEqual({ path: null });
    });

    it('refuses what is not a full path to a folder, as export.start would', async () => {
      for (const chosen of ['relative/folder', original(1), join(root, 'gone'), `${root}/bad\u0007name`]) {
        electron.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: [chosen] });
        await expect(handlers['desktop.pickFolder']({})).rejects.toMatchObject({ code: 'invalid_request' });
      }
    });
  });

  describe('desktop.startDrag', () => {
    it('drags every selected original, the missing ones skipped', async () => {
      engine.media.set(`image/${id(9)}`, { path: join(root, 'data', 'library', 'gone.png'), mime: 'image/png' });
      const result = await handlers['desktop.startDrag']({ imageIds: [id(2), id(9), id(3), id(2)] });
      expect(result).toEqual({ files: 2, skipped: 1 });
      expect(startDrag).toHaveBeenCalledTimes(1);
      expect(startDrag.mock.calls[0]![0]).toMatchObject({ file: original(2), files: [original(2), original(3)] });
    });

    it('shows the first image’s WebP thumbnail as the icon, made PNG (all Electron reads), else the original as it is', async () => {
      const thumb = join(root, 'data', 'thumbs', 'a.webp');
      await mkdir(join(root, 'data', 'thumbs'));
      await sharp({ create: { width: 384, height: 256, channels: 3, background: '#a33' } })
        .webp()
        .toFile(thumb);
      engine.media.set(`thumb/${id(2)}`, { path: thumb, mime: 'image/webp' });
      await handlers['desktop.startDrag']({ imageIds: [id(2), id(3)] });
      const { icon } = startDrag.mock.calls[0]![0] as { icon: { png: Buffer } };
      const meta = await sharp(icon.png).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
        format: 'png',
        width: 96,
        height: 64,
      });
      // No thumbnail, an original nativeImage may read itself: it is handed over by path.
      await handlers['desktop.startDrag']({ imageId: id(3) });
      expect(startDrag.mock.calls[1]![0].icon).toEqual({ from: original(3) });
    });

    it('answers a structured error when the OS refuses the drag', async () => {
      startDrag.mockImplementation(() => {
        throw new Error("Must specify non-empty 'icon' option");
      });
      await expect(handlers['desktop.startDrag']({ imageId: id(1) })).rejects.toMatchObject({
        code: 'storage',
        message: expect.stringContaining('non-empty'),
      });
    });

    it('still drags one image from the viewer by imageId', async () => {
      expect(await handlers['desktop.startDrag']({ imageId: id(1) })).toEqual({ files: 1, skipped: 0 });
      expect(startDrag.mock.calls[0]![0]).toMatchObject({ file: original(1), files: [original(1)] });
    });

    it('answers a structured error, and starts no drag, when none of the originals is left', async () => {
      const error = await handlers['desktop.startDrag']({ imageIds: [id(7), id(8)] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'not_found' });
      expect(startDrag).not.toHaveBeenCalled();
    });

    it('is bounded: the contract refuses more than MAX_DRAG_FILES images, none, or both fields', () => {
      const input = channels['desktop.startDrag'].input;
      const many = Array.from({ length: MAX_DRAG_FILES + 1 }, (_, i) => id(i + 1));
      expect(input.safeParse({ imageIds: many.slice(0, MAX_DRAG_FILES) }).success).toBe(true);
      expect(input.safeParse({ imageIds: many }).success).toBe(false);
      expect(input.safeParse({ imageIds: [] }).success).toBe(false);
      expect(input.safeParse({}).success).toBe(false);
      expect(input.safeParse({ imageId: id(1), imageIds: [id(2)] }).success).toBe(false);
    });
  });

  describe('desktop.droppedImages', () => {
    it('knows the files of the last drag-out as their images, and nothing it did not drag itself', async () => {
      await handlers['desktop.startDrag']({ imageIds: [id(1), id(2)] });
      const dropped = await handlers['desktop.droppedImages']({
        paths: [original(2), original(3), '/etc/passwd', original(1), original(2)],
      });
      expect(dropped.images).toEqual([
        { path: original(2), imageId: id(2) },
        { path: original(1), imageId: id(1) },
      ]);
      // A later drag replaces the memory: the earlier files are no longer this window's drag.
      await handlers['desktop.startDrag']({ imageId: id(3) });
      expect((await handlers['desktop.droppedImages']({ paths: [original(1), original(3)] })).images).toEqual([
        { path: original(3), imageId: id(3) },
      ]);
    });

    it('matches no path before any drag, whatever the page sends', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(fc.string(), fc.constantFrom(original(1), original(2), join(root, 'data'))), {
            maxLength: 20,
          }),
          async (paths) => {
            expect((await handlers['desktop.droppedImages']({ paths })).images).toEqual([]);
          },
        ),
      );
    });
  });
});
