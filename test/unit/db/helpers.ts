import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { GenerateRequest } from '../../../shared/contract.js';
import { uuidv7 } from '../../../shared/ids.js';
import { openStore } from '../../../electron/db/store.js';
import type { JobStore, NewImage, StoreOptions } from '../../../electron/db/types.js';

const dirs: string[] = [];
const stores: JobStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) {
    try {
      store.close();
    } catch {
      // already closed by the test
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-db-'));
  dirs.push(dir);
  return dir;
}

/** A clock the test moves by hand: every call advances 1 ms so creation order is unambiguous. */
export function manualClock(start = 1_700_000_000_000): {
  now: () => number;
  set: (t: number) => void;
  advance: (ms: number) => void;
} {
  let t = start;
  return {
    now: () => (t += 1),
    set: (value) => {
      t = value;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export function open(options: Partial<StoreOptions> & { dataDir?: string } = {}): JobStore {
  const store = openStore({ dataDir: options.dataDir ?? tempDir(), ...options });
  stores.push(store);
  return store;
}

export function req(prompt = 'a red fox', extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { provider: 'builtin', prompt, width: 512, height: 512, count: 1, ...extra };
}

export function image(index: number, path = `library/${index}/${uuidv7()}.png`, bytes = 1000): NewImage {
  return {
    id: uuidv7(),
    index,
    path,
    sha256: path.replace(/\W/g, ''),
    bytes,
    width: 512,
    height: 512,
    mime: 'image/png',
    thumbPath: `thumbs/${path.replace(/^library\//, '').replace(/\.png$/, '.webp')}`,
  };
}

/** Submits, claims and succeeds a job; returns its id. */
export function finished(
  store: JobStore,
  prompt = 'done job',
  extra: Partial<GenerateRequest> = {},
  images: NewImage[] = [],
): string {
  const { job } = store.submit(req(prompt, extra));
  if (!store.claim(job.id)) throw new Error('claim failed');
  store.succeed(job.id, images, { timings: { totalMs: 1 } });
  return job.id;
}
