/**
 * Where an export writes: a full disk under the export folder ends it with words that name that folder (never a
 * bare ENOSPC) and keeps what was written; a folder that is a link into the data dir is refused before a byte.
 */
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { startHarness, type Harness } from '../integration/engine/harness.js';
import { exportDone, linkedLibrary } from '../integration/export/helpers.js';
import { rejection } from './helpers.js';
import { CAN_MOUNT, fillDisk, tryMount, unmount } from './mount.js';

let h: Harness | undefined;
const temps: string[] = [];
const mounts: string[] = [];
afterEach(async () => {
  for (const dir of mounts.splice(0)) unmount(dir, true);
  await h?.cleanup();
  h = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

describe('an export’s target', () => {
  it('a folder that is a link into the data dir is refused, and nothing is written there', async () => {
    h = await startHarness();
    temps.push(await linkedLibrary(h.engine, await toolFiles('into')));
    const link = join(temp('atelier-export-link-'), 'exports');
    symlinkSync(h.dataDir, link);
    for (const format of ['folder', 'zip'] as const) {
      const error = (await rejection(
        h.engine.handlers['export.start']({
          target: { query: { view: 'active' } },
          format,
          folder: link,
          manifest: 'csv',
        }),
      )) as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(/inside Atelier's own data folder/);
    }
    // Thumbnails may still be landing in the background: look for what an export writes, anywhere in the data dir.
    const written = (readdirSync(h.dataDir, { recursive: true }) as string[]).filter((p) =>
      /(^|\/)(atelier-export-.*\.zip|manifest\.(csv|json)|\d{4}-\d{2}-\d{2}_[^/]*)$/.test(p),
    );
    expect(written).toEqual([]);
  });

  it('a full disk under the export folder (a real tmpfs) says so in words, with what was kept', async () => {
    expect(CAN_MOUNT, 'the fault suite runs as root with tmpfs (CI does)').toBe(true);
    h = await startHarness();
    const files = await toolFiles('full');
    temps.push(await linkedLibrary(h.engine, files));
    const disk = temp('atelier-export-full-');
    expect(tryMount(['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk])).toBe(true);
    mounts.push(disk);
    fillDisk(disk);
    for (const format of ['folder', 'zip'] as const) {
      const { export: started } = await h.engine.handlers['export.start']({
        target: { query: { view: 'active' } },
        format,
        folder: disk,
        manifest: 'csv',
      });
      const done = await exportDone(h.engine, started.id);
      expect(done.status).toBe('failed');
      const sofar = format === 'zip' ? 'the unfinished .zip was removed' : `0 of ${files.length} images were exported`;
      expect(done.error).toBe(
        `The export stopped: the disk holding ${disk} is full (${sofar}). Free some space and export again.`,
      );
      expect(done.error).not.toMatch(/ENOSPC/);
    }
    // The engine still answers.
    expect((await h.engine.handlers['jobs.list']({ limit: 50, view: 'active' })).items).toHaveLength(files.length);
  });
});
