import { AppError } from '../../shared/errors.js';
import type { StoreContext } from './context.js';

const MAX_SETTING_BYTES = 2 * 1024 * 1024;

/** Key -> JSON. Secrets never come here: the keyring keeps them. */
export function createSettings(ctx: StoreContext) {
  const read = ctx.sql.prepare<{ value_json: string }>('settings.get', 'SELECT value_json FROM settings WHERE key = ?');
  const write = ctx.sql.prepare(
    'settings.set',
    `INSERT INTO settings (key, value_json, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  );
  return {
    reads: {
      getSetting<T>(key: string): T | null {
        const row = read.get(key);
        return row === undefined ? null : (JSON.parse(row.value_json) as T);
      },
    },
    writes: {
      setSetting(key: string, value: unknown): void {
        if (key.length === 0 || key.length > 200)
          throw new AppError('invalid_request', 'A setting key is 1 to 200 characters.');
        let json: string | undefined;
        try {
          json = JSON.stringify(value);
        } catch (error) {
          throw new AppError('invalid_request', `The setting ${key} cannot be stored as JSON.`, { cause: error });
        }
        if (json === undefined) throw new AppError('invalid_request', `The setting ${key} has no JSON value.`);
        if (Buffer.byteLength(json) > MAX_SETTING_BYTES) {
          throw new AppError('invalid_request', `The setting ${key} is larger than 2 MB.`);
        }
        write.run({ key, value: json, now: ctx.now() });
      },
    },
  };
}
