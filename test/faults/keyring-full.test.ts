/**
 * The headless host's key file on a full or read-only disk: saving a provider key answers `storage` in words (it
 * used to surface as "Something went wrong inside Atelier"), leaves no half-written file, and the saved keys stay.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { createFileKeyring } from '../../electron/engine/file-keyring.js';
import { rejection } from './helpers.js';
import { CAN_MOUNT, fillDisk, tryMount, unmount } from './mount.js';

describe('saving a provider key on a disk that refuses it', () => {
  let root: string;
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0).reverse()) c();
    rmSync(root, { recursive: true, force: true });
  });

  const variant = CAN_MOUNT
    ? 'a real full 1 MB tmpfs'
    : process.getuid?.() === 0
      ? 'root without mount: the keys folder moved away'
      : 'chmod 0500 on the keys folder';
  it(`answers storage in words, keeps the saved keys and leaves no temp file (${variant})`, async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-keys-'));
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    let expected: RegExp;
    let refuse: () => void;
    let allow: () => void;
    if (CAN_MOUNT && tryMount(['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dataDir])) {
      cleanups.push(() => unmount(dataDir, true));
      let filler = '';
      refuse = () => (filler = fillDisk(dataDir));
      allow = () => rmSync(filler);
      expected = /disk is full, so Atelier could not save the provider key: free some space/;
    } else if (process.getuid?.() === 0) {
      refuse = () => renameSync(join(dataDir, 'keys'), join(dataDir, 'keys.away'));
      allow = () => renameSync(join(dataDir, 'keys.away'), join(dataDir, 'keys'));
      expected = /library folder \(.*\) is missing, so Atelier could not save the provider key/;
    } else {
      refuse = () => chmodSync(join(dataDir, 'keys'), 0o500);
      allow = () => chmodSync(join(dataDir, 'keys'), 0o700);
      cleanups.push(allow);
      expected = /not allowed to write to its library folder.*could not save the provider key/;
    }
    const keyring = await createFileKeyring(dataDir);
    await keyring.set('provider.openai.apiKey', 'sk-kept');
    refuse();
    const error = (await rejection(keyring.set('provider.a1111.password', 'new-secret'))) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('storage');
    expect(error.message).toMatch(expected);
    allow();
    if (CAN_MOUNT) expect(readdirSync(join(dataDir, 'keys')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await keyring.get('provider.openai.apiKey')).toBe('sk-kept');
    await keyring.set('provider.a1111.password', 'new-secret');
    expect(await keyring.get('provider.a1111.password')).toBe('new-secret');
  });
});
