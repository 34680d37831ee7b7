import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import type { LibraryHost } from '../../../electron/host/library-host.js';
import { scratch, startHost } from './helpers.js';

describe('what a move is checked against before it starts', () => {
  let space: Awaited<ReturnType<typeof scratch>>;
  let host: LibraryHost | undefined;
  afterEach(async () => {
    await host?.close({ graceMs: 0 });
    host = undefined;
    await space?.cleanup();
  });

  it('two moves started at once: exactly one is accepted, the other is a conflict and writes nothing', async () => {
    space = await scratch();
    host = await startHost({ dataDir: space.lib });
    const targets = [join(space.root, 'first'), join(space.root, 'second')];
    // Neither call is awaited before the other starts: the check and the claim must not be split by an await.
    const results = await Promise.allSettled(targets.map((target) => host!.handlers['library.move.start']({ target })));
    const accepted = results.flatMap((r, i) => (r.status === 'fulfilled' ? [targets[i]!] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(AppError);
    expect(refused[0]).toMatchObject({ code: 'conflict', details: { reason: 'move_running' } });
    await host.settled();
    expect((await host.handlers['library.move.status']({})).move).toMatchObject({ state: 'done', to: accepted[0] });
    expect(host.dataDir).toBe(accepted[0]);
    expect(existsSync(targets.find((t) => t !== accepted[0])!)).toBe(false);
    await expect(host.handlers['jobs.list']({ limit: 10, view: 'active' })).resolves.toMatchObject({ items: [] });
  }, 60_000);

  it('a target inside an imported folder is refused: the library would import itself', async () => {
    space = await scratch();
    const outputs = join(space.root, 'ComfyUI', 'output');
    await mkdir(outputs, { recursive: true });
    host = await startHost({ dataDir: space.lib });
    await host.handlers['library.import']({ paths: [outputs], mode: 'link', watch: true });
    for (const target of [join(outputs, 'Atelier'), outputs]) {
      await expect(host.handlers['library.move.start']({ target })).rejects.toMatchObject({
        code: 'invalid_request',
        details: { reason: 'target_inside_imported', folder: outputs },
      });
    }
    expect(existsSync(join(outputs, 'Atelier'))).toBe(false);
    // Beside the imported folder is fine.
    await writeFile(join(outputs, 'keep.txt'), 'x');
    await host.handlers['library.move.start']({ target: join(space.root, 'ComfyUI', 'Atelier') });
    await host.settled();
    expect(host.dataDir).toBe(join(space.root, 'ComfyUI', 'Atelier'));
  }, 60_000);
});
