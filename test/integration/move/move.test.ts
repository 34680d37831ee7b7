import { appendFileSync, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import type { LibraryHost } from '../../../electron/host/library-host.js';
import { filesUnder, generate, scratch, startHost } from './helpers.js';

const NOT_COPIED = [
  'atelier.db',
  'atelier.db-shm',
  'atelier.db-wal',
  'atelier.lock',
  'atelier.lock-journal',
  'atelier.db.clean-close',
];
const copiedFiles = (files: string[]): string[] =>
  files.filter((f) => !NOT_COPIED.includes(f) && !f.startsWith('atelier.lock.holders') && !f.startsWith('previews'));

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('moving the library to another folder', () => {
  let space: Awaited<ReturnType<typeof scratch>>;
  let host: LibraryHost | undefined;
  afterEach(async () => {
    await host?.close({ graceMs: 0 });
    host = undefined;
    await space?.cleanup();
  });

  it('copies every file, verifies, switches, remembers the folder, and deletes the old copy only with its counts', async () => {
    space = await scratch();
    const outside = join(space.root, 'outside.png');
    await writeFile(outside, 'not Atelier’s');
    host = await startHost({ dataDir: space.lib, pointerFile: join(space.userData, 'library-location.json') });
    const ids = await generate(host);
    // A link someone left in the library: not Atelier's, so neither copied nor deleted.
    await symlink(outside, join(space.lib, 'a-link.png'));
    const originals = (await filesUnder(space.lib)).filter((f) => f.startsWith('library/') || f.startsWith('thumbs/'));
    expect(originals.length).toBeGreaterThanOrEqual(5);
    const target = join(space.root, 'drive', 'Atelier');

    const started = await host.handlers['library.move.start']({ target });
    expect(started).toMatchObject({ state: 'copying', from: space.lib, to: target });
    await expect(host.handlers['jobs.list']({ limit: 10, view: 'active' })).rejects.toMatchObject({
      details: { reason: 'library_moving' },
    });
    await host.settled();
    const { move } = await host.handlers['library.move.status']({});
    expect(move).toMatchObject({ state: 'done', to: target });
    expect(move!.filesDone).toBe(move!.filesTotal);
    expect(move!.bytesDone).toBe(move!.bytesTotal);
    expect(move!.nextStart).toBeUndefined();

    // Every file is there, byte for byte (the quit backup taken when the library closed for the copy too); the link is not.
    const before = copiedFiles(await filesUnder(space.lib)).filter((f) => f !== 'a-link.png');
    expect(before).toEqual(expect.arrayContaining(originals));
    expect(copiedFiles(await filesUnder(target))).toEqual(before);
    for (const rel of before)
      expect(readFileSync(join(target, rel)).equals(readFileSync(join(space.lib, rel)))).toBe(true);
    // The running library is the new one: the same images, served from the new folder.
    expect(host.dataDir).toBe(target);
    const page = await host.handlers['jobs.list']({ limit: 10, view: 'active' });
    expect(page.items.flatMap((job) => job.images.map((image) => image.id)).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(host.resolveMedia('thumb', id)!.path.startsWith(target)).toBe(true);
      expect(host.resolveMedia('image', id)!.path.startsWith(target)).toBe(true);
    }
    expect(JSON.parse(await readFile(join(space.userData, 'library-location.json'), 'utf8'))).toMatchObject({
      dataDir: target,
    });

    const location = await host.handlers['library.location']({});
    expect(location).toMatchObject({ state: 'ready', dataDir: target });
    const counts = location.oldCopy!;
    expect(counts.path).toBe(space.lib);
    // A wrong count deletes nothing.
    const wrong = await refusal(
      host.handlers['library.deleteOldCopy']({ files: counts.files - 1, bytes: counts.bytes }),
    );
    expect(wrong.details).toMatchObject({ reason: 'count_mismatch' });
    expect(copiedFiles(await filesUnder(space.lib)).filter((f) => f !== 'a-link.png')).toEqual(before);

    const deleted = await host.handlers['library.deleteOldCopy']({ files: counts.files, bytes: counts.bytes });
    expect(deleted).toMatchObject({ deletedFiles: counts.files, deletedBytes: counts.bytes, keptFiles: 0 });
    // Only the link nobody copied is left, and what it points to is untouched.
    expect(await filesUnder(space.lib)).toEqual(['a-link.png']);
    expect(await readdir(space.lib)).toEqual(['a-link.png']);
    expect(await readFile(outside, 'utf8')).toBe('not Atelier’s');
    // Thumbnails still come from the new place after the old one is gone.
    for (const id of ids) expect(existsSync(host.resolveMedia('thumb', id)!.path)).toBe(true);
    await expect(
      host.handlers['library.deleteOldCopy']({ files: counts.files, bytes: counts.bytes }),
    ).rejects.toMatchObject({ code: 'not_found' });
  }, 90_000);

  it('Delete the old copy leaves a file changed since it was verified', async () => {
    space = await scratch();
    host = await startHost({ dataDir: space.lib });
    await generate(host);
    await host.handlers['library.move.start']({ target: join(space.root, 'new') });
    await host.settled();
    const counts = (await host.handlers['library.location']({})).oldCopy!;
    const edited = (await filesUnder(space.lib)).find((f) => f.startsWith('library/'))!;
    // Someone opened the old original in another program and saved it: it is no longer what was verified.
    await appendFile(join(space.lib, edited), 'retouched');
    const result = await host.handlers['library.deleteOldCopy']({ files: counts.files, bytes: counts.bytes });
    expect(result).toMatchObject({ deletedFiles: counts.files - 1, keptFiles: 1 });
    expect(await filesUnder(space.lib)).toEqual([edited]);
    expect(readFileSync(join(space.lib, edited)).subarray(-9).toString()).toBe('retouched');
  }, 60_000);

  it('refuses a target inside the library, a folder that is not empty and a drive without room, and keeps working', async () => {
    space = await scratch();
    let free = 10 * 1024 * 1024 * 1024;
    host = await startHost({ dataDir: space.lib, hooks: { freeSpace: async () => free } });
    await generate(host);
    expect(
      (await refusal(host.handlers['library.move.start']({ target: join(space.lib, 'inner') }))).details,
    ).toMatchObject({ reason: 'target_inside_library' });
    const busy = join(space.root, 'busy');
    await mkdir(busy);
    await writeFile(join(busy, 'holiday.jpg'), 'x');
    expect((await refusal(host.handlers['library.move.start']({ target: busy }))).details).toMatchObject({
      reason: 'target_not_empty',
    });
    free = 1024;
    const full = await refusal(host.handlers['library.move.start']({ target: join(space.root, 'small') }));
    expect(full).toMatchObject({ code: 'storage', details: { reason: 'target_no_space' } });
    expect(existsSync(join(space.root, 'small'))).toBe(false);
    expect(await readFile(join(busy, 'holiday.jpg'), 'utf8')).toBe('x');
    expect(host.dataDir).toBe(space.lib);
    expect((await host.handlers['jobs.list']({ limit: 10, view: 'active' })).items).toHaveLength(2);
  }, 60_000);
});

describe('a move that fails leaves the old library in use', () => {
  let space: Awaited<ReturnType<typeof scratch>>;
  let host: LibraryHost | undefined;
  afterEach(async () => {
    await host?.close({ graceMs: 0 });
    host = undefined;
    await space?.cleanup();
  });

  async function failedMove(
    hooks: Parameters<typeof startHost>[0]['hooks'],
    prepare?: (root: string) => Promise<string>,
  ) {
    space = await scratch();
    const to = prepare === undefined ? join(space.root, 'new') : await prepare(space.root);
    host = await startHost({ dataDir: space.lib, ...(hooks === undefined ? {} : { hooks }) });
    const ids = await generate(host);
    const before = new Map(
      (await filesUnder(space.lib))
        .filter((f) => f.startsWith('library') || f.startsWith('thumbs'))
        .map((f) => [f, readFileSync(join(space.lib, f))]),
    );
    await host.handlers['library.move.start']({ target: to });
    await host.settled();
    const { move } = await host.handlers['library.move.status']({});
    // The old library is back and whole.
    expect(host.dataDir).toBe(space.lib);
    const page = await host.handlers['jobs.list']({ limit: 10, view: 'active' });
    expect(page.items.flatMap((job) => job.images.map((image) => image.id)).sort()).toEqual([...ids].sort());
    // Every original and thumbnail as it was (a quit backup may have joined them: the library was closed to copy).
    for (const [rel, bytes] of before) expect(readFileSync(join(space.lib, rel)).equals(bytes)).toBe(true);
    expect(before.size).toBeGreaterThanOrEqual(5);
    expect((await host.handlers['library.location']({})).oldCopy).toBeNull();
    return { move: move!, to };
  }

  it('a disk that fills up mid-copy: a storage error, the partial copy removed', async () => {
    let writes = 0;
    const { move, to } = await failedMove({
      openWrite: (path) => {
        writes += 1;
        const full = writes > 2;
        const real = createWriteStream(path);
        return new Writable({
          write(chunk, _encoding, done) {
            if (full) done(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
            else real.write(chunk, done);
          },
          final(done) {
            real.end(done);
          },
        });
      },
    });
    expect(move).toMatchObject({ state: 'failed', error: { code: 'storage' } });
    expect(move.error!.message).toMatch(/filled up/);
    expect(existsSync(to)).toBe(false);
  }, 60_000);

  it('a file changed after it was copied: caught by the hash check', async () => {
    const seen: string[] = [];
    const { move, to } = await failedMove({
      beforeFile: async (rel) => {
        seen.push(rel);
        // Another program writes to a file that is already copied.
        if (seen.length === 3) await appendFile(join(space.lib, seen[0]!), 'changed');
      },
    });
    expect(move).toMatchObject({ state: 'failed', error: { code: 'conflict' } });
    expect(move.error!.message).toContain(seen[0]!);
    expect(existsSync(to)).toBe(false);
  }, 60_000);

  it('a copy that does not match its original: refused by the verification', async () => {
    const { move } = await failedMove({
      openWrite: (path) => {
        const out = new Writable({
          write(chunk: Buffer, _encoding, done) {
            // A failing drive: the bytes land changed.
            const bad = Buffer.from(chunk);
            if (path.endsWith('.png')) bad[0] = bad[0]! ^ 0xff;
            appendFileSync(path, bad);
            done();
          },
        });
        return out;
      },
    });
    expect(move).toMatchObject({ state: 'failed', error: { code: 'storage' } });
    expect(move.error!.message).toMatch(/does not match/);
  }, 60_000);

  it('a damaged database copy: refused by the integrity check', async () => {
    const { move, to } = await failedMove({
      afterDatabaseCopy: async (path) => {
        // A bad sector in the copy: one page of the index overwritten.
        const bytes = readFileSync(path);
        bytes.fill(0x5a, 4096 * 3, 4096 * 3 + 2048);
        await writeFile(path, bytes);
      },
    });
    expect(move).toMatchObject({ state: 'failed', error: { code: 'storage' } });
    expect(move.error!.message).toMatch(/database/);
    expect(existsSync(to)).toBe(false);
  }, 60_000);

  it('the drive goes away mid-copy: a storage error, the old library stays in use', async () => {
    let count = 0;
    let target = '';
    const { move } = await failedMove(
      {
        beforeFile: async () => {
          count += 1;
          if (count === 2) await rm(target, { recursive: true, force: true });
        },
      },
      async (root) => {
        // An empty folder on the drive, there before the move.
        target = join(root, 'mounted');
        await mkdir(target);
        return target;
      },
    );
    expect(move).toMatchObject({ state: 'failed', error: { code: 'storage' } });
    expect(move.error!.message).toMatch(/went away/);
  }, 60_000);

  it('cancel: the copy stops, what it wrote is removed from a folder that was there, the folder stays', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let count = 0;
    space = await scratch();
    const target = join(space.root, 'empty-before');
    await mkdir(target);
    host = await startHost({
      dataDir: space.lib,
      hooks: {
        beforeFile: async () => {
          count += 1;
          if (count === 3) await held;
        },
      },
    });
    await generate(host);
    await host.handlers['library.move.start']({ target });
    for (let i = 0; i < 500 && count < 3; i += 1) await new Promise((r) => setTimeout(r, 10));
    await host.handlers['library.move.cancel']({});
    release();
    await host.settled();
    expect((await host.handlers['library.move.status']({})).move).toMatchObject({
      state: 'cancelled',
      error: { code: 'cancelled' },
    });
    expect(existsSync(target)).toBe(true);
    expect(await filesUnder(target)).toEqual([]);
    expect(host.dataDir).toBe(space.lib);
    expect((await host.handlers['jobs.list']({ limit: 10, view: 'active' })).items).toHaveLength(2);
  }, 60_000);
});
