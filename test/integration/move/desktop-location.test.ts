import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { openDesktopLibrary } from '../../../electron/desktop/library-location.js';
import type { LibraryHost } from '../../../electron/host/library-host.js';
import { memoryKeyring } from '../engine/harness.js';
import { generate, quietLog, scratch } from './helpers.js';

describe('the desktop app picks its library folder', () => {
  let space: Awaited<ReturnType<typeof scratch>>;
  let host: LibraryHost | undefined;
  afterEach(async () => {
    await host?.close({ graceMs: 0 });
    host = undefined;
    await space?.cleanup();
  });
  const keyrings: string[] = [];
  const open = (userData: string) =>
    openDesktopLibrary({
      userData,
      createEngine: (options) => createEngine({ ...options }, { maintenanceIntervalMs: 0 }),
      createKeyring: (dataDir) => {
        keyrings.push(dataDir);
        return memoryKeyring();
      },
      log: quietLog,
      graceMs: 0,
    });

  it('opens <userData>/data without a pointer, and after a move the new folder on the next start', async () => {
    space = await scratch();
    host = await open(space.userData);
    expect(host.dataDir).toBe(join(space.userData, 'data'));
    const ids = await generate(host);
    const target = join(space.root, 'external', 'Atelier');
    await host.handlers['library.move.start']({ target });
    await host.settled();
    expect(host.location()).toMatchObject({
      state: 'ready',
      dataDir: target,
      pointerFile: join(space.userData, 'library-location.json'),
    });
    // The keyring follows the library: it is opened on the new folder.
    expect(keyrings.at(-1)).toBe(target);
    await host.close({ graceMs: 0 });

    host = await open(space.userData);
    expect(host.dataDir).toBe(target);
    const page = await host.handlers['jobs.list']({ limit: 10, view: 'active' });
    expect(page.items.flatMap((job) => job.images.map((image) => image.id)).sort()).toEqual([...ids].sort());
  }, 60_000);

  it('a remembered folder that is not there: unavailable, and no library is started anywhere', async () => {
    space = await scratch();
    const gone = join(space.root, 'unplugged', 'Atelier');
    await mkdir(space.userData, { recursive: true });
    await writeFile(join(space.userData, 'library-location.json'), JSON.stringify({ dataDir: gone }));
    host = await open(space.userData);
    expect(host.location()).toMatchObject({
      state: 'unavailable',
      dataDir: gone,
      defaultDir: join(space.userData, 'data'),
    });
    await expect(host.handlers['jobs.list']({ limit: 10, view: 'active' })).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'library_unavailable' },
    });
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(join(space.userData, 'data'))).toBe(false);
  }, 30_000);
});
