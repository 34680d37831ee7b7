import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

describe('start-up housekeeping', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.cleanup();
  });

  it('removes files no row references and leftover previews, and reports rows whose file is gone', async () => {
    const entry = scriptedEntry(createScriptedProvider());
    h = await startHarness({ providers: [entry] });
    const { job } = await h.engine.handlers['jobs.submit']({ provider: 'scripted', prompt: 'a kept image', width: 64, height: 64, count: 1 });
    const done = await waitForStatus(h.engine, job.id, ['succeeded']);
    const kept = h.engine.resolveMedia('image', done.images[0]!.id)!.path;
    await h.engine.close();

    mkdirSync(join(h.dataDir, 'library', 'zz'), { recursive: true });
    const orphan = join(h.dataDir, 'library', 'zz', 'orphan.png');
    writeFileSync(orphan, 'not referenced');
    mkdirSync(join(h.dataDir, 'previews', 'old-job'), { recursive: true });
    rmSync(kept);

    await h.open({ providers: [scriptedEntry(createScriptedProvider())] });
    await waitFor(() => !existsSync(orphan));
    expect(existsSync(join(h.dataDir, 'previews', 'old-job'))).toBe(false);
    const stats = await waitFor(async () => {
      const s = await h.engine.handlers['jobs.stats']({});
      return s.missingFiles === 1 ? s : undefined;
    });
    // The row is reported, never dropped.
    expect(stats.images).toBe(1);
    expect((await h.engine.handlers['jobs.get']({ id: job.id })).images).toHaveLength(1);
  });
});
