import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openGuarded, RefusedRead } from '../../../../electron/library/originals/guarded-open.js';
import { createOriginalReader, readGuardedHere } from '../../../../electron/library/originals/original-reader.js';
import { createReadBudget } from '../../../../electron/library/originals/read-budget.js';

let dir: string;
let root: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-guarded-'));
  root = join(dir, 'imported');
  mkdirSync(root);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(promise: Promise<unknown>): Promise<RefusedRead> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedRead);
  return error as RefusedRead;
}

describe('the guarded open', () => {
  it('opens a regular file inside its root, and a link that stays inside it', async () => {
    writeFileSync(join(root, 'a.png'), 'pixels');
    symlinkSync(join(root, 'a.png'), join(root, 'alias.png'));
    for (const name of ['a.png', 'alias.png']) {
      const file = await openGuarded({ path: join(root, name), root, maxBytes: 100 });
      expect(file.size).toBe(6);
      await file.handle.close();
    }
  });

  it('refuses a link out of the root, a pipe and a device, each with its reason and without waiting', async () => {
    writeFileSync(join(dir, 'outside.png'), 'not yours');
    symlinkSync(join(dir, 'outside.png'), join(root, 'out.png'));
    execFileSync('mkfifo', [join(root, 'pipe.png')]);
    expect((await refusal(openGuarded({ path: join(root, 'out.png'), root, maxBytes: 100 }))).reason).toBe('outside');
    expect((await refusal(openGuarded({ path: join(root, 'pipe.png'), root, maxBytes: 100 }))).reason).toBe('not_file');
    // A device inside its root: /dev/zero itself, so no mknod (and no root) is needed.
    expect(
      (await refusal(openGuarded({ path: '/dev/zero', root: '/dev', maxBytes: 100, rootMayBeLink: true }))).reason,
    ).toBe('not_file');
    expect((await refusal(openGuarded({ path: join(root, 'missing.png'), root, maxBytes: 100 }))).reason).toBe('gone');
  });

  it('refuses a file over the limit before reading it', async () => {
    writeFileSync(join(root, 'big.png'), Buffer.alloc(101));
    const error = await refusal(openGuarded({ path: join(root, 'big.png'), root, maxBytes: 100 }));
    expect(error.reason).toBe('too_large');
  });

  it('refuses everything under an imported root that was swapped for a link since (unless the root may be one)', async () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'a.png'), 'pixels');
    rmSync(root, { recursive: true });
    symlinkSync(elsewhere, root);
    expect((await refusal(openGuarded({ path: join(root, 'a.png'), root, maxBytes: 100 }))).reason).toBe('outside');
    const data = await openGuarded({ path: join(root, 'a.png'), root, maxBytes: 100, rootMayBeLink: true });
    await data.handle.close();
  });

  it('a single imported file is its own root: the file itself, never a link in its place', async () => {
    const file = join(root, 'one.png');
    writeFileSync(join(dir, 'outside.png'), 'not yours');
    symlinkSync(join(dir, 'outside.png'), file);
    expect((await refusal(readGuardedHere({ path: file, root: file, maxBytes: 100 }))).reason).toBe('outside');
  });
});

describe('the original reader', () => {
  it('hands back the bytes with their hash, and refuses other bytes than the recorded hash', async () => {
    writeFileSync(join(root, 'a.png'), 'pixels');
    const reader = createOriginalReader({ budget: createReadBudget(1000) });
    try {
      const file = await reader.read({ path: join(root, 'a.png'), root, maxBytes: 100 });
      expect(Buffer.from(file.bytes).toString()).toBe('pixels');
      const error = await refusal(
        reader.read({ path: join(root, 'a.png'), root, maxBytes: 100, sha256: '0'.repeat(64) }),
      );
      expect(error.reason).toBe('changed');
      expect(error.message).toMatch(/has changed since Atelier stored it/);
    } finally {
      await reader.close();
    }
  });

  it('holds files in use against the budget: reads beyond it wait until earlier ones are done', async () => {
    for (let i = 0; i < 6; i += 1) writeFileSync(join(root, `f${i}.png`), Buffer.alloc(400, i));
    const budget = createReadBudget(1000);
    const reader = createOriginalReader({ budget });
    const gates: Array<() => void> = [];
    let inside = 0;
    let done = 0;
    try {
      const all = Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          reader.use({ path: join(root, `f${i}.png`), root, maxBytes: 1000 }, async (file) => {
            inside += 1;
            expect(file.bytes[0]).toBe(i);
            await new Promise<void>((resolve) => gates.push(resolve));
            inside -= 1;
            done += 1;
          }),
        ),
      );
      // 400 bytes each within 1,000: two are read and held, the other four wait at the budget, unread.
      while (inside < 2 || budget.waiting() < 4) await new Promise((r) => setImmediate(r));
      expect(inside).toBe(2);
      expect(budget.inUse()).toBe(800);
      while (done < 6) {
        await new Promise((r) => setImmediate(r));
        expect(inside).toBeLessThanOrEqual(2);
        gates.shift()?.();
      }
      await all;
    } finally {
      await reader.close();
    }
    expect(budget.inUse()).toBe(0);
  });
});
