/**
 * Imported originals swapped behind Atelier's back for a link out of their folder, a device, a pipe or other bytes:
 * export, `/media`, image-to-image, upscale and thumbnails refuse them with a clear per-file answer, never read
 * outside the imported folder, never wait on a pipe, and the engine stays alive and closes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveMediaFile } from '../../electron/host/media-request.js';
import type { Engine } from '../../electron/engine/types.js';
import { toolFiles, type ToolFile } from '../fixtures/images/tool-files.js';
import { startHarness, waitFor, waitForStatus, type Harness } from '../integration/engine/harness.js';
import { exportDone, linkedLibrary, originalsByPath, readZip } from '../integration/export/helpers.js';
import { recordingLog, watchProcessCrashes } from './helpers.js';

let h: Harness | undefined;
const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const SECRET = 'root:x:0:0:not-an-image-the-person-ever-imported\n';

type Swap = 'link out' | 'device' | 'pipe' | 'other bytes';
const SWAPS: Swap[] = ['link out', 'device', 'pipe', 'other bytes'];

/** Replaces the original at `path` with the swap; `outside` holds a file Atelier must never read. */
function swap(path: string, kind: Swap, outside: string): void {
  unlinkSync(path);
  if (kind === 'link out') symlinkSync(outside, path);
  // The same device node as /dev/zero: an endless read.
  else if (kind === 'device') execFileSync('mknod', [path, 'c', '1', '5']);
  else if (kind === 'pipe') execFileSync('mkfifo', [path]);
  else writeFileSync(path, Buffer.from('other bytes under the same name'));
}

async function library(log = recordingLog()) {
  h = await startHarness({ log });
  const files = await toolFiles('guard');
  const root = await linkedLibrary(h.engine, files);
  temps.push(root);
  const outside = join(temp('atelier-outside-'), 'passwd');
  writeFileSync(outside, SECRET);
  const paths = await originalsByPath(h.engine);
  const imageOf = (file: ToolFile): string => [...paths].find(([, p]) => p === join(root, file.name))![0];
  return { h, files, root, outside, imageOf, log };
}

function zipHolds(path: string, bytes: string): boolean {
  return readZip(path).some((e) => e.data.includes(Buffer.from(bytes)));
}

describe('an imported original swapped for something else', () => {
  for (const kind of SWAPS) {
    it(`${kind}: export (ZIP and folder) leaves it out as missing and ships the rest; /media refuses it`, async () => {
      const crashes = watchProcessCrashes();
      try {
        const { h, files, root, outside, imageOf } = await library();
        const victim = files[0]!;
        const victimId = imageOf(victim);
        swap(join(root, victim.name), kind, outside);

        const out = temp('atelier-export-out-');
        const { export: zip } = await h.engine.handlers['export.start']({
          target: { query: { view: 'active' } },
          format: 'zip',
          folder: out,
          manifest: 'csv',
        });
        const zipped = await exportDone(h.engine, zip.id);
        expect(zipped).toMatchObject({ status: 'completed', done: files.length, missing: 1 });
        expect(zipHolds(zipped.path!, SECRET)).toBe(false);
        const shipped = readZip(zipped.path!).filter((e) => e.name !== 'manifest.csv');
        expect(new Set(shipped.map((e) => sha(e.data)))).toEqual(new Set(files.slice(1).map((f) => sha(f.bytes))));

        const folder = temp('atelier-export-folder-');
        const { export: copy } = await h.engine.handlers['export.start']({
          target: { query: { view: 'active' } },
          format: 'folder',
          folder,
          manifest: 'none',
        });
        expect(await exportDone(h.engine, copy.id)).toMatchObject({ status: 'completed', missing: 1 });
        const written = readdirSync(folder).map((name) => readFileSync(join(folder, name)));
        expect(written).toHaveLength(files.length - 1);
        expect(written.some((bytes) => bytes.includes(Buffer.from(SECRET)))).toBe(false);

        expect(await resolveMediaFile(h.engine, { kind: 'image', imageId: victimId })).toBeNull();
        // The others are still served, as verified bytes.
        const other = await resolveMediaFile(h.engine, { kind: 'image', imageId: imageOf(files[1]!) });
        expect(other?.bytes === undefined ? null : sha(other.bytes)).toBe(sha(files[1]!.bytes));
        expect(crashes.errors).toEqual([]);
      } finally {
        crashes.stop();
      }
    });

    it(`${kind}: image-to-image and upscale from it fail with a clear error; the engine answers and closes`, async () => {
      const { h, files, root, outside, imageOf } = await library();
      const victim = files[0]!;
      const imageId = imageOf(victim);
      swap(join(root, victim.name), kind, outside);
      const base = { provider: 'builtin', prompt: 'a field of red flowers', width: 64, height: 64, count: 1 } as const;
      for (const request of [
        { ...base, inputImage: { imageId, strength: 0.5 } },
        { ...base, upscale: { imageId, factor: 2 as const } },
      ]) {
        const { job } = await h.engine.handlers['jobs.submit'](request);
        const failed = await waitForStatus(h.engine, job.id, ['failed', 'succeeded'], 30_000);
        expect(failed.status).toBe('failed');
        expect(failed.error?.message).toMatch(
          kind === 'other bytes'
            ? /has changed since Atelier stored it/
            : /cannot be read \(its original\): (It leads outside|It is not a regular file|The file)/,
        );
      }
      // Still answering, and a quit does not wait on the pipe.
      expect((await h.engine.handlers['jobs.list']({ limit: 5, view: 'active' })).items.length).toBeGreaterThan(0);
      await h.engine.close({ graceMs: 0 });
    });
  }

  it('a thumbnail still to be made from an original that became a device or a pipe is refused at every start, and the engine closes', async () => {
    for (const kind of ['device', 'pipe'] as const) {
      const log = recordingLog();
      const { h, files, root, outside, imageOf } = await library(log);
      const victim = files[0]!;
      const imageId = imageOf(victim);
      await h.engine.close({ graceMs: 0 });
      swap(join(root, victim.name), kind, outside);
      // As if the import had been killed before the thumbnail was made.
      const db = new Database(join(h.dataDir, 'atelier.db'));
      db.prepare('UPDATE images SET thumb_path = NULL WHERE id = ?').run(imageId);
      db.close();
      const again = recordingLog();
      const engine: Engine = await h.open({ log: again });
      const warned = await waitFor(
        () => again.lines.find((l) => l.message === 'could not make a thumbnail' && l.fields?.['imageId'] === imageId),
        20_000,
      );
      expect(String(warned.fields?.['error'])).toMatch(/not a regular file/);
      expect((await engine.handlers['jobs.list']({ limit: 50, view: 'active' })).items.length).toBe(files.length);
      await engine.close({ graceMs: 0 });
      await h.cleanup();
      for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
    h = undefined;
  }, 60_000);
});

describe('a link in an imported folder that leads out of it', () => {
  it('dropped into a watched folder, is not imported: the file fails with the reason and nothing outside is read or thumbnailed', async () => {
    const log = recordingLog();
    h = await startHarness({ log, watchSettleMs: 50 });
    const [image, other] = await toolFiles('linked');
    const outsideDir = temp('atelier-outside-');
    writeFileSync(join(outsideDir, 'elsewhere.png'), image!.bytes);
    const root = temp('atelier-watched-');
    const { import: started } = await h.engine.handlers['library.import']({ paths: [root], mode: 'link', watch: true });
    await waitFor(async () =>
      (await h!.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    );
    symlinkSync(join(outsideDir, 'elsewhere.png'), join(root, 'escape.png'));
    const refused = await waitFor(
      () => log.lines.find((l) => l.message === 'a watched file could not be imported'),
      20_000,
    );
    expect(refused.fields).toMatchObject({
      path: join(root, 'escape.png'),
      reason: expect.stringMatching(/leads outside the folder it was imported from/),
    });
    writeFileSync(join(root, other!.name), other!.bytes);
    await waitFor(
      async () =>
        (await h!.engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items.find(
          (j) => j.path === join(root, other!.name),
        ),
      20_000,
    );
    const page = await h.engine.handlers['jobs.list']({ limit: 10, view: 'active' });
    expect(page.items.map((j) => j.path)).toEqual([join(root, other!.name)]);
  }, 40_000);

  it('a link to a file inside the same watched folder is read (links that stay inside are fine)', async () => {
    h = await startHarness({ watchSettleMs: 50 });
    const [image] = await toolFiles('inner');
    const root = temp('atelier-watched-');
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real', image!.name), image!.bytes);
    const { import: started } = await h.engine.handlers['library.import']({ paths: [root], mode: 'link', watch: true });
    await waitFor(async () =>
      (await h!.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    );
    const [job] = (await h.engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items;
    symlinkSync(join(root, 'real', image!.name), join(root, 'alias.png'));
    const locations = await waitFor(async () => {
      const found = (await h!.engine.handlers['jobs.get']({ id: job!.id })).metadata!.locations;
      return found.length === 2 ? found : undefined;
    }, 20_000);
    expect(locations.map((l) => l.path).sort()).toEqual([join(root, 'alias.png'), join(root, 'real', image!.name)]);
  }, 40_000);
});
