import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { AppError } from '../../shared/errors.js';
import { toStorageError } from '../base/storage-fault.js';
import type { Keyring } from '../base/keyring.js';
import { createSerialQueue } from '../engine/serial-queue.js';

/** Provider secrets in the app: encrypted by the OS keychain (safeStorage), stored as base64 in a 0600 file. */
const FILE = 'keys.safestorage.json';

export function createSafeStorageKeyring(dataDir: string): Keyring {
  const path = join(dataDir, FILE);
  const readAll = async (): Promise<Record<string, string>> => {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new AppError('storage', 'The saved provider keys could not be read.', { cause: error });
    }
  };
  const writeAll = async (all: Record<string, string>): Promise<void> => {
    const temp = `${path}.${process.pid}.tmp`;
    try {
      // The data dir is never re-created here: gone means an unplugged drive, and this must say so.
      await writeFile(temp, JSON.stringify(all), { mode: 0o600 });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw toStorageError(error, dataDir, 'save the provider key');
    }
  };
  const requireEncryption = (): void => {
    // Never fall back to storing a key in clear text: say why and what to do instead.
    if (!safeStorage.isEncryptionAvailable()) {
      throw new AppError(
        'storage',
        'This system has no keychain available to protect API keys. Set up the OS keyring (e.g. GNOME Keyring or KWallet) and try again.',
      );
    }
  };
  const serial = createSerialQueue();
  return {
    async get(name) {
      const sealed = (await readAll())[name];
      if (sealed === undefined || !safeStorage.isEncryptionAvailable()) return null;
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        // Encrypted under another OS account or keychain: treat as not set, the person can enter it again.
        return null;
      }
    },
    set(name, value) {
      return serial(async () => {
        requireEncryption();
        const all = await readAll();
        all[name] = safeStorage.encryptString(value).toString('base64');
        await writeAll(all);
      });
    },
    delete(name) {
      return serial(async () => {
        const all = await readAll();
        if (!(name in all)) return;
        delete all[name];
        await writeAll(all);
      });
    },
  };
}
