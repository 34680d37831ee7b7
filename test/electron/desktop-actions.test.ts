import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_DIR } from '../../electron/media/media-paths.js';
import { launchApp, seedImage, waitUntil, type RunningApp } from './app.js';

/**
 * Reveal in folder, Copy image and Save as… from the viewer's details, answered by main. The OS folder window and
 * the save dialog are stubbed in main (they would wait for a person); the clipboard is the real one.
 */
let running: RunningApp;
const PROMPT = 'a teapot on a windowsill';
let imageId: string;

interface Stubs {
  revealed: string[];
  saveAnswers: { canceled: boolean; filePath: string }[];
  saveAsked: number;
}

beforeAll(async () => {
  running = await launchApp();
  ({ imageId } = await seedImage(running.window, PROMPT));
  await running.app.evaluate(({ dialog, shell }) => {
    const g = globalThis as unknown as { stubs: Stubs };
    g.stubs = { revealed: [], saveAnswers: [], saveAsked: 0 };
    shell.showItemInFolder = (path: string) => {
      g.stubs.revealed.push(path);
    };
    dialog.showSaveDialog = (async () => {
      g.stubs.saveAsked += 1;
      return { ...(g.stubs.saveAnswers.shift() ?? { canceled: true, filePath: '' }) };
    }) as typeof dialog.showSaveDialog;
  });
  await running.window.getByRole('button', { name: PROMPT, exact: true }).dblclick();
  await running.window.getByRole('dialog', { name: `Viewer: ${PROMPT}` }).waitFor();
});

afterAll(() => running?.close());

const details = () =>
  running.window.getByRole('dialog', { name: `Viewer: ${PROMPT}` }).getByRole('complementary', { name: 'Details' });
const stubs = () => running.app.evaluate(() => (globalThis as unknown as { stubs: Stubs }).stubs);

describe('desktop actions on an image', () => {
  it('Reveal in folder shows the original in the library', async () => {
    await details().getByRole('button', { name: 'Reveal in folder' }).click();
    await waitUntil(async () => (await stubs()).revealed.length === 1, 'main to reveal the file');
    const [revealed] = (await stubs()).revealed;
    // Originals are content-addressed (library/ab/<rest of sha256>.png): the file shown is this image's own bytes.
    expect(realpathSync.native(revealed!).startsWith(realpathSync.native(join(running.dataDir, LIBRARY_DIR)))).toBe(
      true,
    );
    const digest = createHash('sha256')
      .update(await readFile(revealed!))
      .digest('hex');
    expect(`${basename(dirname(revealed!))}${basename(revealed!, '.png')}`).toBe(digest);
    // And it is the one the media scheme serves for this image id.
    const served = await running.app.evaluate(async ({ net }, id) => {
      const response = await net.fetch(`atelier-media://image/${encodeURIComponent(id)}`);
      return Buffer.from(await response.arrayBuffer()).toString('base64');
    }, imageId);
    expect(createHash('sha256').update(Buffer.from(served, 'base64')).digest('hex')).toBe(digest);
  });

  it('Copy image puts the picture, at its size, on the system clipboard', async () => {
    await running.app.evaluate(({ clipboard }) => clipboard.clear());
    await details().getByRole('button', { name: 'Copy image' }).click();
    await waitUntil(
      () => running.app.evaluate(({ clipboard }) => clipboard.has('image/png')),
      'an image on the clipboard',
    );
    const size = await running.app.evaluate(async ({ clipboard, nativeImage }) => {
      const [item] = await clipboard.read();
      const blob = (await item!.getType('image/png')) as Blob;
      return nativeImage.createFromBuffer(Buffer.from(await blob.arrayBuffer())).getSize();
    });
    expect(size).toEqual({ width: 64, height: 64 });
  });

  it('Save as… writes a byte-for-byte copy where the dialog says, and nothing when it is cancelled', async () => {
    const target = join(running.userDataDir, 'saved-teapot.png');
    await running.app.evaluate((_electron, path) => {
      (globalThis as unknown as { stubs: Stubs }).stubs.saveAnswers.push(
        { canceled: true, filePath: '' },
        { canceled: false, filePath: path },
      );
    }, target);
    await details().getByRole('button', { name: 'Save as…' }).click();
    await waitUntil(async () => (await stubs()).saveAsked === 1, 'the save dialog to be asked');
    await expect(readFile(target)).rejects.toMatchObject({ code: 'ENOENT' });

    await details().getByRole('button', { name: 'Save as…' }).click();
    await waitUntil(async () => (await readFile(target).catch(() => null)) !== null, 'the copy to be written');
    const original = (await stubs()).revealed[0]!;
    expect((await readFile(target)).equals(await readFile(original))).toBe(true);
  });
});
