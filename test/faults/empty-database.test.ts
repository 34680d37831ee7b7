/**
 * Fault: the database is emptied or lost while library/ is full (a restored folder, a deleted atelier.db). Atelier
 * must keep every file, say so, and rebuild the history from the images' own embedded settings.
 */
import { existsSync, readdirSync, rmSync, truncateSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/engine/types.js';
import { createScriptedProvider, scriptedEntry } from '../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from '../integration/engine/harness.js';

const HOUR = 3_600_000;

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function recordingLog() {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, ...(fields ? { fields } : {}) });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const PROMPTS = [
  { prompt: 'a lighthouse at dusk', seed: 11, count: 1 },
  { prompt: 'červená liška v lese', seed: 22, count: 2 },
  { prompt: 'a teapot on a shelf', seed: 33, count: 1 },
  { prompt: 'harbour in the rain', seed: 44, count: 1 },
];

/** A library of PROMPTS made for real, then aged past the orphan collection's one-hour grace period. */
async function populatedLibrary(): Promise<{ h: Harness; files: string[] }> {
  const h = await startHarness({ providers: [scriptedEntry(createScriptedProvider())] });
  for (const p of PROMPTS) {
    const { job } = await h.engine.handlers['jobs.submit']({ provider: 'scripted', width: 64, height: 64, ...p });
    await waitForStatus(h.engine, job.id, ['succeeded']);
  }
  await h.engine.close();
  const files = [...filesUnder(join(h.dataDir, 'library')), ...filesUnder(join(h.dataDir, 'thumbs'))];
  const old = new Date(Date.now() - 2 * HOUR);
  for (const file of files) utimesSync(file, old, old);
  return { h, files };
}

async function settled(engine: Engine) {
  return waitFor(async () => {
    const s = await engine.handlers['jobs.stats']({});
    return s.recovery.state === 'checking' ? undefined : s;
  });
}

const LOSSES = {
  deleted: (dir: string) => {
    for (const name of ['atelier.db', 'atelier.db-wal', 'atelier.db-shm', 'atelier.db.clean-close'])
      rmSync(join(dir, name), { force: true });
  },
  truncated: (dir: string) => {
    for (const name of ['atelier.db-wal', 'atelier.db-shm']) rmSync(join(dir, name), { force: true });
    truncateSync(join(dir, 'atelier.db'), 0);
  },
};

describe('an empty or missing database beside a populated library', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  for (const [loss, lose] of Object.entries(LOSSES)) {
    it(`${loss} atelier.db: every file stays, the log and stats say so, and a rebuild brings the history back once`, async () => {
      const made = await populatedLibrary();
      h = made.h;
      expect(made.files.length).toBeGreaterThanOrEqual(5 + 1);
      lose(h.dataDir);

      const { lines, log } = recordingLog();
      // The real grace period (one hour): the files are two hours old, as in the reported case.
      const engine = await h.open({ providers: [scriptedEntry(createScriptedProvider())], orphanGraceMs: HOUR, log });
      const stats = await settled(engine);

      for (const file of made.files) expect(existsSync(file)).toBe(true);
      expect(filesUnder(join(h.dataDir, 'orphans'))).toEqual([]);
      expect(stats.total).toBe(0);
      expect(stats.recovery).toEqual({ state: 'needed', libraryFiles: 5, unknownFiles: 5 });
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          message: expect.stringMatching(/nothing was swept/),
          fields: { libraryFiles: 5, unknownFiles: 5 },
        }),
      );

      const rebuilt = await engine.handlers['library.rebuild']({});
      expect(rebuilt).toEqual({ jobs: 4, images: 5, known: 0, unreadable: 0 });
      const page = await engine.handlers['jobs.list']({ view: 'all', limit: 60 });
      expect(page.items.map((j) => j.prompt).sort()).toEqual(PROMPTS.map((p) => p.prompt).sort());
      for (const p of PROMPTS) {
        const summary = page.items.find((j) => j.prompt === p.prompt)!;
        const job = await engine.handlers['jobs.get']({ id: summary.id });
        expect(job).toMatchObject({ status: 'succeeded', count: p.count, request: { seed: p.seed, prompt: p.prompt } });
        expect(job.images).toHaveLength(p.count);
        expect(job.events.map((e) => e.kind)).toEqual(['rebuilt']);
        for (const image of job.images) {
          expect(existsSync(engine.resolveMedia('image', image.id)!.path)).toBe(true);
          expect(existsSync(engine.resolveMedia('thumb', image.id)!.path)).toBe(true);
        }
      }
      // Search works on the rebuilt rows (folded, any script).
      expect((await engine.handlers['jobs.list']({ view: 'all', limit: 60, search: 'LIŠKA' })).items).toHaveLength(1);
      const after = await engine.handlers['jobs.stats']({});
      expect(after).toMatchObject({ total: 4, images: 5, recovery: { state: 'ok', libraryFiles: 5, unknownFiles: 0 } });

      // Idempotent: a second rebuild adds nothing.
      expect(await engine.handlers['library.rebuild']({})).toEqual({ jobs: 0, images: 0, known: 5, unreadable: 0 });
      expect((await engine.handlers['jobs.stats']({})).total).toBe(4);

      // And the next start sweeps nothing the history now knows.
      await engine.close();
      const again = await h.open({ providers: [scriptedEntry(createScriptedProvider())], orphanGraceMs: HOUR });
      expect((await settled(again)).recovery.state).toBe('ok');
      for (const file of made.files) expect(existsSync(file)).toBe(true);
    });
  }

  it('leaves files it cannot read where they are, and counts them', async () => {
    const made = await populatedLibrary();
    h = made.h;
    LOSSES.deleted(h.dataDir);
    const stranger = join(h.dataDir, 'library', 'ab', `${'c'.repeat(62)}.png`);
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(h.dataDir, 'library', 'ab'), { recursive: true });
    writeFileSync(stranger, 'not a png at all');
    const engine = await h.open({ providers: [scriptedEntry(createScriptedProvider())] });
    expect((await settled(engine)).recovery).toMatchObject({ state: 'needed', libraryFiles: 6 });
    expect(await engine.handlers['library.rebuild']({})).toEqual({ jobs: 4, images: 5, known: 0, unreadable: 1 });
    expect(existsSync(stranger)).toBe(true);
    expect((await engine.handlers['jobs.stats']({})).recovery).toEqual({
      state: 'ok',
      libraryFiles: 6,
      unknownFiles: 1,
    });
  });

  it('once rebuilt, does not keep offering a rebuild for files it could not read', async () => {
    const made = await populatedLibrary();
    h = made.h;
    LOSSES.deleted(h.dataDir);
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(h.dataDir, 'library', 'ab'), { recursive: true });
    for (let i = 0; i < 8; i += 1)
      writeFileSync(join(h.dataDir, 'library', 'ab', `${String(i).repeat(62)}.png`), `stranger ${i}`);
    const engine = await h.open({ providers: [scriptedEntry(createScriptedProvider())] });
    expect((await settled(engine)).recovery).toMatchObject({ state: 'needed', libraryFiles: 13, unknownFiles: 13 });
    expect(await engine.handlers['library.rebuild']({})).toMatchObject({ jobs: 4, unreadable: 8 });
    expect((await engine.handlers['jobs.stats']({})).recovery).toEqual({
      state: 'ok',
      libraryFiles: 13,
      unknownFiles: 8,
    });
  });
});
