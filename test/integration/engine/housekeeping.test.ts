import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

describe('start-up housekeeping', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.cleanup();
  });

  it('moves files no row references to orphans/, removes leftover previews, and reports rows whose file is gone', async () => {
    const entry = scriptedEntry(createScriptedProvider());
    h = await startHarness({ providers: [entry] });
    const submit = async (prompt: string, seed: number) => {
      const { job } = await h.engine.handlers['jobs.submit']({
        provider: 'scripted',
        prompt,
        width: 64,
        height: 64,
        count: 1,
        seed,
      });
      return waitForStatus(h.engine, job.id, ['succeeded']);
    };
    await submit('a kept image', 1);
    const lost = await submit('an image whose file goes', 2);
    const gone = h.engine.resolveMedia('image', lost.images[0]!.id)!.path;
    await h.engine.close();

    mkdirSync(join(h.dataDir, 'library', 'ee'), { recursive: true });
    const orphanName = `${'e'.repeat(62)}.png`;
    const orphan = join(h.dataDir, 'library', 'ee', orphanName);
    writeFileSync(orphan, 'not referenced');
    mkdirSync(join(h.dataDir, 'previews', 'old-job'), { recursive: true });
    rmSync(gone);

    await h.open({ providers: [scriptedEntry(createScriptedProvider())] });
    await waitFor(() => !existsSync(orphan));
    // Kept, not deleted: moved aside and counted.
    expect(readFileSync(join(h.dataDir, 'orphans', 'library', 'ee', orphanName), 'utf8')).toBe('not referenced');
    expect(existsSync(join(h.dataDir, 'previews', 'old-job'))).toBe(false);
    const stats = await waitFor(async () => {
      const s = await h.engine.handlers['jobs.stats']({});
      return s.missingFiles === 1 ? s : undefined;
    });
    expect(stats.orphans).toEqual({ files: 1, bytes: 'not referenced'.length });
    // The row is reported, never dropped.
    expect(stats.images).toBe(2);
    expect((await h.engine.handlers['jobs.get']({ id: lost.id })).images).toHaveLength(1);
  });
});
