import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/db/store.js';
import type { JobStore } from '../../../electron/db/types.js';
import { createEventBus } from '../../../electron/base/events.js';
import { createImporter } from '../../../electron/library/import/importer.js';
import { createOriginalReader, type OriginalReader } from '../../../electron/library/originals/original-reader.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { insertChunks, tEXt } from '../../unit/media/helpers.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
let dir: string;
let store: JobStore | undefined;
let reader: OriginalReader | undefined;
afterEach(async () => {
  await reader?.close();
  reader = undefined;
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the importer under many small commits', () => {
  it('accounts for every file once, however commits and concurrent reads interleave', async () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-batches-'));
    const source = join(dir, 'outputs');
    mkdirSync(source);
    const [base] = await toolFiles('batch');
    const total = 400;
    for (let i = 0; i < total; i += 1)
      writeFileSync(join(source, `img-${i}.png`), insertChunks(base!.bytes, [tEXt('note', `copy ${i}`)]));
    store = openStore({ dataDir: join(dir, 'data') });
    const announced = new Set<string>();
    // A commit every millisecond while six files are read at once: commits land while reads are awaited.
    const importer = createImporter({
      dataDir: join(dir, 'data'),
      store,
      reader: (reader = createOriginalReader()),
      bus: createEventBus(),
      log: silent,
      now: Date.now,
      announce: (ids) => ids.forEach((id) => announced.add(id)),
      batchMs: 1,
      batchSize: 16,
      concurrency: 6,
    });
    const { id } = await importer.import({ paths: [source] });
    for (let i = 0; i < 600 && importer.get(id).status === 'running'; i += 1)
      await new Promise((r) => setTimeout(r, 50));
    expect(importer.get(id)).toMatchObject({ status: 'completed', found: total, imported: total, duplicates: 0 });
    expect(store.imports.pending(id, 0, 10)).toEqual([]);
    expect(store.stats().total).toBe(total);
    expect(announced.size).toBe(total);
  }, 60_000);

  it('a read that hangs does not hold back the files already read: they are committed, announced and reported', async () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-batches-'));
    const source = join(dir, 'outputs');
    mkdirSync(source);
    const [base] = await toolFiles('held');
    const total = 10;
    const held = 4;
    for (let i = 0; i < total; i += 1)
      writeFileSync(join(source, `img-${i}.png`), insertChunks(base!.bytes, [tEXt('note', `copy ${i}`)]));
    store = openStore({ dataDir: join(dir, 'data') });
    const bus = createEventBus();
    const reported: number[] = [];
    bus.on('library.importProgress', (event) => {
      if (event.status === 'running' && !event.scanning) reported.push(event.imported);
    });
    const announced = new Set<string>();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Files img-4 … img-9 wait at the gate; the first four read at once, within one batch window.
    const wrapRead = async (path: string, read: (p: string) => Promise<{ bytes: Uint8Array; sha256: string }>) => {
      if (Number(/img-(\d+)/.exec(basename(path))![1]) >= held) await gate;
      return read(path);
    };
    const importer = createImporter({
      dataDir: join(dir, 'data'),
      store,
      reader: (reader = createOriginalReader()),
      bus,
      log: silent,
      now: Date.now,
      announce: (ids) => ids.forEach((id) => announced.add(id)),
      batchMs: 100,
      batchSize: 16,
      concurrency: 6,
      wrapRead,
    });
    const { id } = await importer.import({ paths: [source] });
    try {
      for (let i = 0; i < 100 && !(importer.get(id).imported === held && reported.includes(held)); i += 1)
        await new Promise((r) => setTimeout(r, 50));
      expect(importer.get(id)).toMatchObject({ status: 'running', found: total, imported: held });
      expect(reported.at(-1)).toBe(held);
      expect(announced.size).toBe(held);
    } finally {
      release();
    }
    for (let i = 0; i < 200 && importer.get(id).status === 'running'; i += 1)
      await new Promise((r) => setTimeout(r, 50));
    expect(importer.get(id)).toMatchObject({ status: 'completed', imported: total });
    await importer.close();
  }, 30_000);
});
