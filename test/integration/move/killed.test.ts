import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { LibraryHost } from '../../../electron/host/library-host.js';
import { PARTIAL_MARKER } from '../../../electron/library/move/partial.js';
import { filesUnder, generate, scratch, startHost } from './helpers.js';

const child = fileURLToPath(new URL('./move-child.ts', import.meta.url));

/** Runs a move in a child process that SIGKILLs itself before copying its `killAt`-th file. */
async function killedMove(dataDir: string, target: string, killAt: number | 'db'): Promise<NodeJS.Signals | null> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, DATA_DIR: dataDir, TARGET: target, KILL_AT: String(killAt) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', (_code, signal) => resolve(signal));
  });
}

const libraryFiles = (files: string[]): string[] =>
  files.filter((f) => f.startsWith('library/') || f.startsWith('thumbs/'));

describe('a move killed mid-way', () => {
  let space: Awaited<ReturnType<typeof scratch>>;
  let host: LibraryHost | undefined;
  afterEach(async () => {
    await host?.close({ graceMs: 0 });
    host = undefined;
    await space?.cleanup();
  });

  async function libraryWithPartialCopy(
    targetExisted: boolean,
    killAt: number | 'db' = 3,
  ): Promise<{ target: string; before: Map<string, Buffer> }> {
    space = await scratch();
    host = await startHost({ dataDir: space.lib });
    await generate(host);
    await host.close({ graceMs: 0 });
    host = undefined;
    const target = join(space.root, 'drive', 'Atelier');
    if (targetExisted) await mkdir(target, { recursive: true });
    const before = new Map(libraryFiles(await filesUnder(space.lib)).map((f) => [f, readFileSync(join(space.lib, f))]));
    expect(await killedMove(space.lib, target, killAt)).toBe('SIGKILL');
    // What the kill left: Atelier's marker and the first files (and the database only when killed after it).
    const left = await filesUnder(target);
    expect(left).toContain(PARTIAL_MARKER);
    expect(left.filter((f) => f !== PARTIAL_MARKER).length).toBeGreaterThanOrEqual(2);
    expect(left.includes('atelier.db')).toBe(killAt === 'db');
    return { target, before };
  }

  it('a retry recognises the partial copy as Atelier’s own, clears it and moves the whole library', async () => {
    const { target, before } = await libraryWithPartialCopy(true);
    host = await startHost({ dataDir: space.lib });
    await host.handlers['library.move.start']({ target });
    await host.settled();
    expect((await host.handlers['library.move.status']({})).move).toMatchObject({ state: 'done', to: target });
    expect(host.dataDir).toBe(target);
    const moved = await filesUnder(target);
    expect(moved).not.toContain(PARTIAL_MARKER);
    for (const [rel, bytes] of before) expect(readFileSync(join(target, rel)).equals(bytes)).toBe(true);
    expect((await host.handlers['jobs.list']({ limit: 10, view: 'active' })).items).toHaveLength(2);
  }, 120_000);

  it('killed after the database copy, before the verification: not a library to open, and a retry completes the move', async () => {
    const { target, before } = await libraryWithPartialCopy(false, 'db');
    // A host whose remembered library is gone is offered folders to open: the unverified copy is not one.
    const lost = await startHost({ dataDir: join(space.root, 'unplugged'), remembered: true });
    await expect(lost.handlers['library.useLocation']({ mode: 'open', path: target })).rejects.toMatchObject({
      details: { reason: 'partial_copy' },
    });
    await lost.close({ graceMs: 0 });
    host = await startHost({ dataDir: space.lib });
    await host.handlers['library.move.start']({ target });
    await host.settled();
    expect((await host.handlers['library.move.status']({})).move).toMatchObject({ state: 'done', to: target });
    expect(await filesUnder(target)).not.toContain(PARTIAL_MARKER);
    for (const [rel, bytes] of before) expect(readFileSync(join(target, rel)).equals(bytes)).toBe(true);
  }, 120_000);

  it('a partial copy beside a file Atelier did not write: refused, nothing removed; once that file is gone the retry works', async () => {
    const { target } = await libraryWithPartialCopy(false);
    await writeFile(join(target, 'notes.txt'), 'mine');
    const left = await filesUnder(target);
    host = await startHost({ dataDir: space.lib });
    await expect(host.handlers['library.move.start']({ target })).rejects.toMatchObject({
      code: 'invalid_request',
      details: { reason: 'target_not_empty', partialCopy: true, foreign: ['notes.txt'] },
    });
    expect(await filesUnder(target)).toEqual(left);
    expect(await readFile(join(target, 'notes.txt'), 'utf8')).toBe('mine');
    // The marker stays: the folder is still known as Atelier's partial copy.
    expect(existsSync(join(target, PARTIAL_MARKER))).toBe(true);

    await rm(join(target, 'notes.txt'));
    await host.handlers['library.move.start']({ target });
    await host.settled();
    expect((await host.handlers['library.move.status']({})).move).toMatchObject({ state: 'done', to: target });
  }, 120_000);
});
