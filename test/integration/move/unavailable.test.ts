import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';
import { runServe, type ServeHandle } from '../../../electron/serve/run.js';
import { generate, scratch } from './helpers.js';

const TOKEN = 'move-test-token-0123456789';

interface Answer {
  ok: boolean;
  value?: { state?: string; dataDir?: string; items?: unknown[] };
  error?: { code: string; details?: Record<string, unknown> };
}

async function call(
  handle: ServeHandle,
  channel: string,
  body: unknown = {},
): Promise<{ status: number; json: Answer }> {
  const res = await fetch(`http://127.0.0.1:${handle.server.port}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Answer };
}

describe('a remembered library whose drive is not connected at start', () => {
  let space: Awaited<ReturnType<typeof scratch>>;
  let handle: ServeHandle | undefined;
  afterEach(async () => {
    await handle?.shutdown();
    handle = undefined;
    await space?.cleanup();
  });

  /** A library on "the drive", remembered in the pointer file, then the drive unplugged. */
  async function rememberedThenUnplugged() {
    space = await scratch();
    const config = join(space.root, 'config');
    const drive = join(space.root, 'drive');
    const lib = join(drive, 'Atelier');
    const engine = await createEngine(
      {
        dataDir: lib,
        keyring: await createFileKeyring(lib),
      },
      {
        maintenanceIntervalMs: 0,
      },
    );
    await generate(engine);
    await engine.close({ graceMs: 0 });
    await mkdir(join(config, 'Atelier'), { recursive: true });
    await writeFile(join(config, 'Atelier', 'library-location.json'), JSON.stringify({ dataDir: lib }));
    await rename(drive, join(space.root, 'drive-elsewhere'));
    const env = { XDG_CONFIG_HOME: config, HOME: space.root };
    handle = await runServe(['--port', '0', '--token', TOKEN, '--renderer-dir', space.root], {
      createEngine: (options) => createEngine({ ...options }, { maintenanceIntervalMs: 0 }),
      createKeyring: createFileKeyring,
      stdout: () => undefined,
      stderr: () => undefined,
      env,
    });
    return {
      config,
      drive,
      lib,
      defaultDir: join(config, 'Atelier', 'data'),
      pointer: join(config, 'Atelier', 'library-location.json'),
    };
  }

  it('reports library.unavailable, creates nothing there, and opens the library once the drive is back (Wait)', async () => {
    const { drive, lib } = await rememberedThenUnplugged();
    const where = await call(handle!, 'library.location');
    expect(where.json.value).toMatchObject({ state: 'unavailable', dataDir: lib });
    const list = await call(handle!, 'jobs.list', { limit: 10 });
    expect(list.status).toBe(409);
    expect(list.json.error).toMatchObject({
      code: 'conflict',
      details: { reason: 'library_unavailable', dataDir: lib },
    });
    expect(existsSync(drive)).toBe(false);

    // An empty mount point is not the library either: nothing is written into it.
    await mkdir(lib, { recursive: true });
    expect((await call(handle!, 'library.retryLocation')).json.value).toMatchObject({ state: 'unavailable' });
    expect(await readdir(lib)).toEqual([]);

    await rename(join(lib, '..'), join(drive, '..', 'empty-mount'));
    await rename(join(space.root, 'drive-elsewhere'), drive);
    expect((await call(handle!, 'library.retryLocation')).json.value).toMatchObject({ state: 'ready', dataDir: lib });
    const jobs = await call(handle!, 'jobs.list', { limit: 10 });
    expect(jobs.json.value?.items).toHaveLength(2);
  }, 60_000);

  it('Pick another folder: only a folder with a library in it, then remembered', async () => {
    const { pointer } = await rememberedThenUnplugged();
    const notALibrary = join(space.root, 'photos');
    await mkdir(notALibrary);
    const refused = await call(handle!, 'library.useLocation', { mode: 'open', path: notALibrary });
    expect(refused.json.error).toMatchObject({ code: 'invalid_request', details: { reason: 'not_a_library' } });
    expect(await readdir(notALibrary)).toEqual([]);
    const elsewhere = join(space.root, 'drive-elsewhere', 'Atelier');
    expect((await call(handle!, 'library.useLocation', { mode: 'open', path: elsewhere })).json.value).toMatchObject({
      state: 'ready',
      dataDir: elsewhere,
    });
    expect((await call(handle!, 'jobs.list', { limit: 10 })).json.value?.items).toHaveLength(2);
    expect(JSON.parse(await readFile(pointer, 'utf8'))).toMatchObject({ dataDir: elsewhere });
  }, 60_000);

  it('Start a new library: in the default folder, the pointer forgotten, the remembered library untouched', async () => {
    const { pointer, defaultDir } = await rememberedThenUnplugged();
    const before = await readdir(join(space.root, 'drive-elsewhere', 'Atelier'), { recursive: true });
    expect((await call(handle!, 'library.useLocation', { mode: 'new' })).json.value).toMatchObject({
      state: 'ready',
      dataDir: defaultDir,
    });
    expect((await call(handle!, 'jobs.list', { limit: 10 })).json.value?.items).toHaveLength(0);
    expect(existsSync(pointer)).toBe(false);
    expect(await readdir(join(space.root, 'drive-elsewhere', 'Atelier'), { recursive: true })).toEqual(before);
  }, 60_000);
});
