import type { SecretBook } from '../providers/redact.js';
import type { Keyring } from '../base/keyring.js';

/** The keyring, telling the secret book every value it stores or decrypts, so the log redacts a key before its first call. */
export function learningKeyring(keyring: Keyring, book: SecretBook): Keyring {
  return {
    async get(name) {
      const value = await keyring.get(name);
      if (value !== null) book.add([value]);
      return value;
    },
    async set(name, value) {
      book.add([value]);
      await keyring.set(name, value);
    },
    delete: (name) => keyring.delete(name),
  };
}
