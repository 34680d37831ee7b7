/**
 * XMP sidecars against another tool on the same folder: a sidecar it creates between Atelier's check and its write
 * wins (create-exclusive), Atelier's own sidecar swapped for another file after the check is put back untouched, and
 * a symlink at the sidecar's path (dangling, to a file, or swapped in later) is never replaced or followed. The
 * other tool acts through the writer's afterCheck hook: the same moment every time, no sleeps.
 */
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobStore } from '../../electron/db/types.js';
import { createSidecarWriter, type SidecarFs } from '../../electron/library/xmp/sidecar-writer.js';
import { xmpPacket } from '../../electron/library/xmp/xmp-packet.js';
import { recordingLog } from './helpers.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const THEIRS = '<?xml version="1.0"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- darktable --></x:xmpmeta>\n';

describe('XMP sidecars never replace a file Atelier did not write', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** One linked original and a writer over a store that remembers what it wrote; `rating` changes what is written. */
  function setup(afterCheck?: (path: string) => void, fs?: SidecarFs) {
    dir = mkdtempSync(join(tmpdir(), 'atelier-xmp-race-'));
    const original = join(dir, 'photo.png');
    writeFileSync(original, 'png bytes');
    const sidecar = `${original}.xmp`;
    const written = new Map<string, string>();
    let rating = 3;
    const store = {
      xmp: {
        target: () => ({ original, rating, tags: ['fox'] }),
        written: (path: string) => written.get(path) ?? null,
        record: (path: string, _imageId: string, hash: string) => void written.set(path, hash),
      },
    } as unknown as JobStore;
    const log = recordingLog();
    const writer = createSidecarWriter({
      store,
      log,
      enabled: () => true,
      ...(afterCheck !== undefined && { afterCheck }),
      ...(fs !== undefined && { fs }),
    });
    const write = async (next: number) => {
      rating = next;
      writer.queue(['image']);
      await writer.idle();
    };
    /** Files beside the original other than these: no temporary or moved-aside file is ever left behind. */
    const leftovers = () =>
      readdirSync(dir).filter((name) => name !== 'photo.png' && name !== 'photo.png.xmp' && name !== 'elsewhere.xmp');
    return { original, sidecar, written, writer, write, log, leftovers };
  }

  it('a sidecar another tool creates between the check and the write is kept (it used to be overwritten)', async () => {
    const s = setup((path) => writeFileSync(path, THEIRS));
    await s.write(4);
    expect(readFileSync(s.sidecar, 'utf8')).toBe(THEIRS);
    expect(s.writer.outcome()).toEqual({ written: 0, keptForeign: 1, failed: 0 });
    expect(s.written.size).toBe(0);
    expect(s.leftovers()).toEqual([]);
  });

  it('its own sidecar swapped for another tool’s after the check is put back untouched', async () => {
    let swap = false;
    // Replaced by a rename, as editors save: a new file at the same name.
    const s = setup((path) => {
      if (!swap) return;
      writeFileSync(`${path}.new`, THEIRS);
      renameSync(`${path}.new`, path);
    });
    await s.write(2);
    expect(readFileSync(s.sidecar, 'utf8')).toBe(xmpPacket(2, ['fox']));
    swap = true;
    await s.write(5);
    expect(readFileSync(s.sidecar, 'utf8')).toBe(THEIRS);
    expect(s.writer.outcome()).toMatchObject({ written: 1, keptForeign: 1, failed: 0 });
    expect(s.leftovers()).toEqual([]);
  });

  it('a sidecar another tool makes while Atelier’s own is moved aside for its update is kept', async () => {
    let moved = false;
    const fs: SidecarFs = {
      ...fsp,
      rename: async (from, to) => {
        await fsp.rename(from, to);
        moved = String(to).endsWith('.old');
      },
      writeFile: async (path, data, options) => {
        if (moved && String(path).endsWith('.tmp'))
          writeFileSync(String(path).replace(/\.[0-9a-f]+\.tmp$/, ''), THEIRS);
        return fsp.writeFile(path, data, options);
      },
    };
    const s = setup(undefined, fs);
    await s.write(2);
    await s.write(5);
    expect(readFileSync(s.sidecar, 'utf8')).toBe(THEIRS);
    expect(s.writer.outcome()).toEqual({ written: 1, keptForeign: 1, failed: 0 });
    expect(s.leftovers()).toEqual([]);
  });

  it('a dangling symlink, or one to a copy of its own sidecar, stays a symlink and its target is never written', async () => {
    const s = setup();
    const elsewhere = join(dir, 'elsewhere.xmp');
    symlinkSync(elsewhere, s.sidecar);
    await s.write(4);
    expect(lstatSync(s.sidecar).isSymbolicLink()).toBe(true);
    expect(existsSync(elsewhere)).toBe(false);

    // Atelier wrote it once; since then it became a symlink to a file holding those very bytes.
    unlinkSync(s.sidecar);
    await s.write(3);
    const own = xmpPacket(3, ['fox']);
    expect(readFileSync(s.sidecar, 'utf8')).toBe(own);
    renameSync(s.sidecar, elsewhere);
    symlinkSync(elsewhere, s.sidecar);
    await s.write(1);
    expect(lstatSync(s.sidecar).isSymbolicLink()).toBe(true);
    expect(readlinkSync(s.sidecar)).toBe(elsewhere);
    expect(readFileSync(elsewhere, 'utf8')).toBe(own);
    expect(s.writer.outcome()).toEqual({ written: 1, keptForeign: 2, failed: 0 });
    expect(s.leftovers()).toEqual([]);
  });

  it('a symlink swapped in after the check, for a new sidecar or over its own, is never replaced or followed', async () => {
    let act: ((path: string) => void) | undefined;
    const s = setup((path) => act?.(path));
    const elsewhere = join(dir, 'elsewhere.xmp');
    act = (path) => symlinkSync(elsewhere, path);
    await s.write(4);
    expect(lstatSync(s.sidecar).isSymbolicLink()).toBe(true);
    expect(existsSync(elsewhere)).toBe(false);

    unlinkSync(s.sidecar);
    act = undefined;
    await s.write(2);
    const own = xmpPacket(2, ['fox']);
    expect(s.written.get(s.sidecar)).toBe(sha(own));
    act = (path) => {
      writeFileSync(elsewhere, own);
      unlinkSync(path);
      symlinkSync(elsewhere, path);
    };
    await s.write(5);
    expect(lstatSync(s.sidecar).isSymbolicLink()).toBe(true);
    expect(readlinkSync(s.sidecar)).toBe(elsewhere);
    expect(readFileSync(elsewhere, 'utf8')).toBe(own);
    expect(s.writer.outcome()).toEqual({ written: 1, keptForeign: 2, failed: 0 });
    expect(s.leftovers()).toEqual([]);
  });
});
