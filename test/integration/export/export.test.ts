/** export.start through the engine: ZIP and folder exports of linked originals, manifests, missing files, cancel. */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../electron/library/csv.js';
import { AppError } from '../../../shared/errors.js';
import { a1111Parameters, toolFiles } from '../../fixtures/images/tool-files.js';
import { insertChunks, makePng, tEXt } from '../../unit/media/helpers.js';
import { startHarness, waitForStatus, type Harness } from '../engine/harness.js';
import { exportDone, linkedLibrary, originalsByPath, readZip } from './helpers.js';

let h: Harness;
const temps: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-export-out-'));
  temps.push(dir);
  return dir;
};
afterEach(async () => {
  await h?.cleanup();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('export to a ZIP', () => {
  it('stores every original byte for byte under a readable, unique name, with a CSV manifest of its settings', async () => {
    h = await startHarness();
    const files = await toolFiles('zip');
    const root = await linkedLibrary(h.engine, files);
    temps.push(root);
    const before = new Map(files.map((f) => [f.name, statSync(join(root, f.name)).mtimeMs]));
    const out = temp();

    const { export: started } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active' } },
      format: 'zip',
      folder: out,
      manifest: 'csv',
    });
    expect(started.total).toBe(files.length);
    const done = await exportDone(h.engine, started.id);
    expect(done).toMatchObject({
      status: 'completed',
      done: files.length,
      missing: 0,
      bytes: files.reduce((n, f) => n + f.bytes.length, 0),
    });
    expect(readdirSync(out)).toEqual([basename(done.path!)]);

    const entries = readZip(done.path!);
    const images = entries.filter((e) => e.name !== 'manifest.csv');
    expect(images).toHaveLength(files.length);
    // Stored, never re-encoded: each entry is one of the originals exactly.
    expect(images.every((e) => e.method === 0)).toBe(true);
    expect(new Set(images.map((e) => sha(e.data)))).toEqual(new Set(files.map((f) => sha(f.bytes))));
    expect(new Set(images.map((e) => e.name.toLowerCase())).size).toBe(images.length);
    for (const e of images) expect(e.name).toMatch(/^\d{4}-\d{2}-\d{2}_[\p{L}\p{N}-]+_[0-9A-Za-z-]+\.(png|jpg|webp)$/u);

    const manifest = parseCsv(entries.find((e) => e.name === 'manifest.csv')!.data.toString('utf8')).records.map(
      (r) => r.fields,
    );
    const [header, ...rows] = manifest;
    const col = (name: string) => header!.indexOf(name);
    expect(rows).toHaveLength(files.length);
    const paths = await originalsByPath(h.engine);
    for (const row of rows) {
      const file = files.find((f) => join(root, f.name) === paths.get(row[col('imageId')]!))!;
      expect(row[col('status')]).toBe('exported');
      expect(row[col('prompt')]).toBe(file.prompt);
      expect(row[col('seed')]).toBe(file.seed ?? '');
      expect(row[col('sha256')]).toBe(sha(file.bytes));
      expect(sha(images.find((e) => e.name === row[col('file')])!.data)).toBe(sha(file.bytes));
      if (file.prompt !== '') expect(row[col('file')]).toContain(file.prompt.toLowerCase().split(/[^\p{L}\p{N}]+/u)[0]);
    }
    // The linked originals were only read.
    for (const f of files) {
      expect(sha(readFileSync(join(root, f.name)))).toBe(sha(f.bytes));
      expect(statSync(join(root, f.name)).mtimeMs).toBe(before.get(f.name));
    }
  });

  it('lists a missing original as missing in the manifest and exports the rest', async () => {
    h = await startHarness();
    const files = await toolFiles('gone');
    const root = await linkedLibrary(h.engine, files);
    temps.push(root);
    // The test's own copy of the file goes; the library still knows the image.
    unlinkSync(join(root, files[0]!.name));
    const out = temp();

    const { export: started } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active' } },
      format: 'zip',
      folder: out,
      manifest: 'json',
    });
    const done = await exportDone(h.engine, started.id);
    expect(done).toMatchObject({ status: 'completed', total: files.length, done: files.length, missing: 1 });
    const entries = readZip(done.path!);
    const manifest = JSON.parse(entries.find((e) => e.name === 'manifest.json')!.data.toString('utf8')) as {
      images: Array<{ file: string; status: string; sha256: string }>;
    };
    const missing = manifest.images.filter((r) => r.status === 'missing');
    expect(missing.map((r) => r.sha256)).toEqual([sha(files[0]!.bytes)]);
    expect(done.missingNames).toEqual([missing[0]!.file]);
    expect(entries.map((e) => e.name)).not.toContain(missing[0]!.file);
    expect(entries).toHaveLength(files.length);
  });

  it("exports Atelier's own images (in its data dir) byte for byte, as a ZIP and as files", async () => {
    h = await startHarness();
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'a lighthouse at dusk',
      width: 64,
      height: 64,
      count: 2,
    });
    const made = await waitForStatus(h.engine, job.id, ['succeeded']);
    const stored = made.images.map((i) => sha(readFileSync(h.engine.resolveMedia('image', i.id)!.path)));
    const { export: zip } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active' } },
      format: 'zip',
      folder: temp(),
      manifest: 'none',
    });
    const zipped = await exportDone(h.engine, zip.id);
    expect(zipped).toMatchObject({ status: 'completed', done: 2, missing: 0 });
    expect(
      readZip(zipped.path!)
        .map((e) => sha(e.data))
        .sort(),
    ).toEqual([...stored].sort());
    const folder = temp();
    const { export: files } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active' } },
      format: 'folder',
      folder,
      manifest: 'none',
    });
    expect(await exportDone(h.engine, files.id)).toMatchObject({ status: 'completed', done: 2, missing: 0 });
    expect(
      readdirSync(folder)
        .map((name) => sha(readFileSync(join(folder, name))))
        .sort(),
    ).toEqual([...stored].sort());
  });

  it('exports just the selected images, and refuses a target that matches nothing', async () => {
    h = await startHarness();
    const files = await toolFiles('ids');
    const root = await linkedLibrary(h.engine, files);
    temps.push(root);
    const ids = [...(await originalsByPath(h.engine)).keys()].slice(0, 2);
    const { export: started } = await h.engine.handlers['export.start']({
      target: { ids },
      format: 'zip',
      folder: temp(),
      manifest: 'none',
    });
    const done = await exportDone(h.engine, started.id);
    const entries = readZip(done.path!);
    expect(entries).toHaveLength(2);
    const error = await h.engine.handlers['export.start']({
      target: { query: { view: 'active', search: 'nothing-matches-this' } },
      format: 'zip',
      manifest: 'none',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_request');
  });

  it('gives images with the same prompt, seed and day names of their own', async () => {
    h = await startHarness();
    const twin = (i: number) =>
      makePng(40, 30, { r: 10 * i, g: 90, b: 9 }).then((png) =>
        insertChunks(png, [tEXt('parameters', a1111Parameters('Twin/Lamps: at *dusk*', 5))]),
      );
    const files = await Promise.all([0, 1, 2].map(async (i) => ({ name: `twin-${i}.png`, bytes: await twin(i) })));
    temps.push(await linkedLibrary(h.engine, files));
    const { export: started } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active' } },
      format: 'zip',
      folder: temp(),
      manifest: 'none',
    });
    const names = readZip((await exportDone(h.engine, started.id)).path!)
      .map((e) => e.name)
      .sort();
    const stem = names.reduce((a, b) => (a.length <= b.length ? a : b)).replace(/\.png$/, '');
    expect(stem).toMatch(/^\d{4}-\d{2}-\d{2}_twin-lamps-at-dusk_5$/);
    expect(names).toEqual([`${stem} (2).png`, `${stem} (3).png`, `${stem}.png`].sort());
  });
});

describe('the export list', () => {
  it('keeps the newest finished exports (each holds its plan), newest first; a cancelled download cannot start', async () => {
    h = await startHarness();
    const files = await toolFiles('list');
    temps.push(await linkedLibrary(h.engine, files));
    const ids: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      const { export: started } = await h.engine.handlers['export.start']({
        target: { query: { view: 'active' } },
        format: 'zip',
        manifest: 'none',
      });
      expect(started.status).toBe('ready');
      expect((await h.engine.handlers['export.cancel']({ id: started.id })).export.status).toBe('cancelled');
      ids.push(started.id);
    }
    const { items } = await h.engine.handlers['export.list']({});
    expect(items.map((e) => e.id)).toEqual(ids.slice(-21).reverse());
    expect(h.engine.exportDownload(ids.at(-1)!)).toBeNull();
  });
});

describe('export to a folder', () => {
  it('never overwrites a file already there: the copy takes a " (2)" name', async () => {
    h = await startHarness();
    const files = await toolFiles('folder');
    const root = await linkedLibrary(h.engine, files);
    temps.push(root);
    const out = temp();
    const first = await exportDone(
      h.engine,
      (
        await h.engine.handlers['export.start']({
          target: { query: { view: 'active' } },
          format: 'folder',
          folder: out,
          manifest: 'json',
        })
      ).export.id,
    );
    expect(first).toMatchObject({ status: 'completed', done: files.length });
    const names = readdirSync(out).sort();
    expect(names).toHaveLength(files.length + 1);
    // The person's own edit of one exported file, and their own notes under the manifest's name.
    const edited = names.find((n) => n !== 'manifest.json')!;
    writeFileSync(join(out, edited), 'my edit');
    const manifestBefore = readFileSync(join(out, 'manifest.json'));

    const second = await exportDone(
      h.engine,
      (
        await h.engine.handlers['export.start']({
          target: { query: { view: 'active' } },
          format: 'folder',
          folder: out,
          manifest: 'json',
        })
      ).export.id,
    );
    expect(second).toMatchObject({ status: 'completed', done: files.length });
    expect(readFileSync(join(out, edited), 'utf8')).toBe('my edit');
    expect(readFileSync(join(out, 'manifest.json')).equals(manifestBefore)).toBe(true);
    const after = readdirSync(out);
    expect(after).toHaveLength(2 * (files.length + 1));
    const manifest = JSON.parse(readFileSync(join(out, 'manifest (2).json'), 'utf8')) as {
      images: Array<{ file: string; sha256: string }>;
    };
    for (const row of manifest.images) {
      expect(row.file).toMatch(/ \(2\)\.[a-z]+$/);
      expect(sha(readFileSync(join(out, row.file)))).toBe(row.sha256);
    }
  });

  it('cancel stops the copy: fewer files than the export covers, none half-written', async () => {
    h = await startHarness();
    const files = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => ({
        name: `many-${i}.png`,
        bytes: await makePng(64, 48, { r: i, g: 255 - i, b: (i * 7) % 256 }),
      })),
    );
    const root = await linkedLibrary(h.engine, files);
    temps.push(root);
    const out = temp();
    const progress: Array<{ id: string; status: string; done: number }> = [];
    h.engine.events.on('export.progress', (event) => progress.push(event));
    const { export: started } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active' } },
      format: 'folder',
      folder: out,
      manifest: 'none',
    });
    const { export: cancelled } = await h.engine.handlers['export.cancel']({ id: started.id });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.done).toBeLessThan(files.length);
    const written = readdirSync(out);
    expect(written.length).toBe(cancelled.done);
    const originals = new Set(files.map((f) => sha(f.bytes)));
    for (const name of written) expect(originals.has(sha(readFileSync(join(out, name))))).toBe(true);
    // Nothing more arrives after the cancel, shown by the export's own end rather than a wait: the cancel answered
    // after the copy loop ended (its last event, 'cancelled', is already out) and every file it made is counted.
    const own = progress.filter((e) => e.id === started.id);
    expect(own.at(-1)).toMatchObject({ status: 'cancelled', done: written.length });
    expect(own.filter((e) => e.status === 'cancelled')).toHaveLength(1);
    // And a barrier for any copy still tracked somewhere: closing the engine awaits every export's work.
    await h.engine.close({ graceMs: 0 });
    expect(readdirSync(out).length).toBe(written.length);
  });
});
