import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveMediaFile } from '../../../electron/host/media-request.js';
import { avifWith, baseAvif } from '../../fixtures/images/avif.js';
import { a1111Parameters } from '../../fixtures/images/tool-files.js';
import { buildExif, unicodeComment } from '../../fixtures/images/tiff-exif.js';
import { importDone } from './import-helpers.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

let h: Harness;
let outside: string;
beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'atelier-avif-'));
});
afterEach(async () => {
  await h?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe('importing AVIF files', () => {
  it('imports an A1111 AVIF found by its prompt, with a thumbnail, and refuses a cut one', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const avif = avifWith(await baseAvif(64, 48), {
      exif: buildExif({ UserComment: unicodeComment(a1111Parameters('a lighthouse avifquill at dusk', 4242)) }),
    });
    const dir = join(outside, 'forge');
    mkdirSync(dir);
    writeFileSync(join(dir, '00001-4242.avif'), avif);
    writeFileSync(join(dir, '00002-cut.avif'), avif.subarray(0, avif.length - 20));
    const { import: started } = await h.engine.handlers['library.import']({ paths: [dir], mode: 'copy', watch: false });
    const done = await importDone(h.engine, started.id);
    expect(done).toMatchObject({ status: 'completed', found: 2, imported: 1 });
    expect(done.problems.map((p) => [p.path.split('/').pop(), p.reason])).toEqual([
      ['00002-cut.avif', expect.stringMatching(/cut short/)],
    ]);

    const { items } = await h.engine.handlers['jobs.list']({ limit: 60, view: 'active', search: 'avifquill' });
    expect(items).toHaveLength(1);
    const job = items[0]!;
    expect(job.source).toBe('a1111');
    const detail = await h.engine.handlers['jobs.get']({ id: job.id });
    expect(detail.request).toMatchObject({ prompt: 'a lighthouse avifquill at dusk', seed: 4242, steps: 30 });
    expect(job.images[0]).toMatchObject({ width: 64, height: 48, mime: 'image/avif' });

    // The copy in library/ keeps its bytes and its kind; the thumbnail is decoded from the AVIF.
    const image = await resolveMediaFile(h.engine, { kind: 'image', imageId: job.images[0]!.id });
    expect(image!.path.endsWith('.avif')).toBe(true);
    expect(image!.mime).toBe('image/avif');
    expect(readFileSync(image!.path).equals(Buffer.from(avif))).toBe(true);
    const withThumb = await waitFor(async () => {
      const page = await h.engine.handlers['jobs.list']({ limit: 60, view: 'active', search: 'avifquill' });
      return page.items[0]?.images[0]?.thumbPending === undefined ? page.items[0] : undefined;
    });
    const thumb = await resolveMediaFile(h.engine, { kind: 'thumb', imageId: withThumb.images[0]!.id });
    expect(thumb!.path.startsWith(join(h.dataDir, 'thumbs'))).toBe(true);
    const meta = await sharp(readFileSync(thumb!.path)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
  });

  it('reads a copied AVIF back with its settings when the database is lost', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const avif = avifWith(await baseAvif(40, 30), {
      exif: buildExif({ UserComment: unicodeComment(a1111Parameters('a harbour avifrebuild at noon', 77)) }),
    });
    mkdirSync(join(outside, 'c'));
    writeFileSync(join(outside, 'c', 'x.avif'), avif);
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [join(outside, 'c')],
      mode: 'copy',
      watch: false,
    });
    await importDone(h.engine, started.id);
    await h.engine.close();
    rmSync(join(outside, 'c'), { recursive: true });
    for (const f of ['atelier.db', 'atelier.db-wal', 'atelier.db-shm']) rmSync(join(h.dataDir, f), { force: true });

    const engine = await h.open({ housekeepingDelayMs: 0 });
    await waitFor(async () =>
      (await engine.handlers['jobs.stats']({})).recovery.state === 'needed' ? true : undefined,
    );
    expect(await engine.handlers['library.rebuild']({})).toEqual({ jobs: 1, images: 1, known: 0, unreadable: 0 });
    const { items } = await engine.handlers['jobs.list']({ limit: 60, view: 'active', search: 'avifrebuild' });
    expect(items.map((j) => [j.source, j.prompt, j.images[0]!.mime])).toEqual([
      ['a1111', 'a harbour avifrebuild at noon', 'image/avif'],
    ]);
  });
});
