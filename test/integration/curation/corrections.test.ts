/** Corrections and notes through the engine: Retry and export use the corrected settings, a note reaches the sidecar. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../electron/library/csv.js';
import { xmpPacket } from '../../../electron/library/xmp/xmp-packet.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';
import { exportDone, readZip } from '../export/helpers.js';

describe('a corrected imported image, end to end', () => {
  let h: Harness | undefined;
  const temps: string[] = [];
  afterEach(async () => {
    await h?.cleanup();
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('retries with the corrected settings, exports them with its note, and writes the note to its sidecar', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'atelier-corrections-'));
    const out = mkdtempSync(join(tmpdir(), 'atelier-corrections-out-'));
    temps.push(outside, out);
    const file = (await toolFiles('fix')).find((f) => f.source === 'invokeai')!;
    writeFileSync(join(outside, file.name), file.bytes);
    h = await startHarness();
    const engine = h.engine;
    const { import: started } = await engine.handlers['library.import']({
      paths: [outside],
      mode: 'link',
      watch: false,
    });
    await waitFor(async () =>
      (await engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    );
    const [job] = (await engine.handlers['jobs.list']({ limit: 5, view: 'active' })).items;
    const imageId = job!.images[0]!.id;

    await engine.handlers['jobs.correct']({ jobId: job!.id, set: { prompt: 'a grey wolf', seed: 99, steps: 12 } });
    await engine.handlers['images.setNote']({ imageId, text: 'Print for the\nwall' });
    const detail = await engine.handlers['jobs.get']({ id: job!.id });
    expect(detail.request.prompt).toBe(file.prompt);
    expect(detail.corrections).toEqual({ prompt: 'a grey wolf', seed: 99, steps: 12 });
    expect(
      (await engine.handlers['jobs.list']({ limit: 5, view: 'active', search: 'note:wall wolf' })).items,
    ).toHaveLength(1);

    const retried = await engine.handlers['jobs.retry']({ id: job!.id });
    expect(retried.job.request).toMatchObject({ prompt: 'a grey wolf', seed: 99, steps: 12 });

    const { export: run } = await engine.handlers['export.start']({
      target: { ids: [imageId] },
      format: 'zip',
      folder: out,
      manifest: 'csv',
    });
    const done = await exportDone(engine, run.id);
    const [header, row] = parseCsv(
      readZip(done.path!)
        .find((e) => e.name === 'manifest.csv')!
        .data.toString('utf8'),
    ).records.map((r) => r.fields);
    const col = (name: string) => row![header!.indexOf(name)];
    expect([col('prompt'), col('seed'), col('note')]).toEqual(['a grey wolf', '99', 'Print for the\nwall']);

    await engine.handlers['settings.update']({ library: { xmpSidecars: true } });
    await engine.handlers['images.setNote']({ imageId, text: 'Print for the wall & <hall>' });
    const sidecar = join(outside, `${file.name}.xmp`);
    await waitFor(() => {
      try {
        return readFileSync(sidecar, 'utf8') === xmpPacket(0, [], 'Print for the wall & <hall>') ? true : undefined;
      } catch {
        return undefined;
      }
    });
  });
});
