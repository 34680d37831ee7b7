import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { explainOpenFailure } from '../db/open-failure.js';
import { toStorageError } from '../base/storage-fault.js';
import type { Keyring } from '../base/keyring.js';
import { createSerialQueue } from './serial-queue.js';

/** Encrypted secrets file for the headless host: a 32-byte key in `keys/master.key` (0600) and AES-256-GCM values. */
const KEY_FILE = 'master.key';
const SECRETS_FILE = 'secrets.json';

interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

export async function createFileKeyring(dataDir: string): Promise<Keyring> {
  const dir = join(dataDir, 'keys');
  let key: Buffer;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    key = await loadOrCreateKey(join(dir, KEY_FILE));
  } catch (error) {
    // The host's first touch of the data dir: a read-only or full disk is told in the same words as the store's.
    throw explainOpenFailure(error, dataDir);
  }
  const secretsPath = join(dir, SECRETS_FILE);

  const readAll = async (): Promise<Record<string, Sealed>> => {
    try {
      return JSON.parse(await readFile(secretsPath, 'utf8')) as Record<string, Sealed>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new AppError('storage', 'The saved provider keys could not be read.', { cause: error });
    }
  };
  const writeAll = (all: Record<string, Sealed>): void => {
    try {
      writeFileAtomic(secretsPath, JSON.stringify(all));
    } catch (error) {
      throw toStorageError(error, dataDir, 'save the provider key');
    }
  };

  const serial = createSerialQueue();

  return {
    async get(name) {
      const sealed = (await readAll())[name];
      if (sealed === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
        decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        // A key file replaced or a value tampered with: treat as not set rather than fail every job.
        return null;
      }
    },
    set(name, value) {
      return serial(async () => {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv);
        const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
        const all = await readAll();
        all[name] = {
          iv: iv.toString('base64'),
          tag: cipher.getAuthTag().toString('base64'),
          data: data.toString('base64'),
        };
        writeAll(all);
      });
    },
    delete(name) {
      return serial(async () => {
        const all = await readAll();
        if (!(name in all)) return;
        delete all[name];
        writeAll(all);
      });
    },
  };
}

async function loadOrCreateKey(path: string): Promise<Buffer> {
  try {
    const key = readFileSync(path);
    if (key.length === 32) return key;
    throw new AppError('storage', `The key file ${path} is damaged; move it away to start with no saved keys.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  writeFileAtomic(path, key);
  return key;
}

function writeFileAtomic(path: string, data: string | Buffer): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    // A half-written temp file (a full disk) is ours to remove; the previous file stays as it was.
    rmSync(tmp, { force: true });
    throw error;
  }
}
