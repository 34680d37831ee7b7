import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';

describe('file keyring (headless host secrets)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'atelier-keyring-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores secrets encrypted in 0600 files and reads them back after a restart', async () => {
    const secret = 'sk-test-DO-NOT-LEAK-1234567890';
    const keyring = await createFileKeyring(dir);
    await keyring.set('provider.openai.apiKey', secret);
    expect(await keyring.get('provider.openai.apiKey')).toBe(secret);

    for (const name of await readdir(join(dir, 'keys'))) {
      const path = join(dir, 'keys', name);
      expect((await readFile(path)).includes(Buffer.from(secret))).toBe(false);
      if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    }
    const reopened = await createFileKeyring(dir);
    expect(await reopened.get('provider.openai.apiKey')).toBe(secret);
    await reopened.delete('provider.openai.apiKey');
    expect(await reopened.get('provider.openai.apiKey')).toBeNull();
  });

  it('keeps every write when several land at once', async () => {
    const keyring = await createFileKeyring(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => keyring.set(`k${i}`, `v${i}`)));
    for (let i = 0; i < 20; i += 1) expect(await keyring.get(`k${i}`)).toBe(`v${i}`);
  });
});
