import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

const child = fileURLToPath(new URL('./import-child.ts', import.meta.url));

/** Runs the child until a progress event shows at least `atLeast` files done, then kills it with SIGKILL. */
async function importUntilKilled(
  dataDir: string,
  sourceDir: string,
  atLeast: number,
): Promise<{ id: string; doneAtKill: number }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, DATA_DIR: dataDir, SOURCE_DIR: sourceDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let id = '';
  let doneAtKill = 0;
  let buffer = '';
  await new Promise<void>((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', () => resolve());
    proc.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const event = JSON.parse(line) as { started?: string; imported?: number; duplicates?: number; status?: string };
        if (event.started !== undefined) id = event.started;
        else if ((event.imported ?? 0) >= atLeast && doneAtKill === 0) {
          doneAtKill = event.imported!;
          proc.kill('SIGKILL');
        }
      }
    });
  });
  return { id, doneAtKill };
}

describe('an import killed with SIGKILL', () => {
  let h: Harness | undefined;
  let source: string;
  afterEach(async () => {
    await h?.cleanup();
    rmSync(source, { recursive: true, force: true });
  });

  it('resumes on the next start where it stopped: every file once, no duplicates, nothing lost', async () => {
    source = mkdtempSync(join(tmpdir(), 'atelier-killed-'));
    let count = 0;
    for (let batch = 0; batch < 40; batch += 1) {
      const dir = join(source, `day-${String(batch).padStart(2, '0')}`);
      mkdirSync(dir, { recursive: true });
      for (const file of await toolFiles(`k${batch}`, batch)) {
        writeFileSync(join(dir, file.name), file.bytes);
        count += 1;
      }
    }
    h = await startHarness({ housekeepingDelayMs: 0 });
    const dataDir = h.dataDir;
    await h.engine.close();

    const { id, doneAtKill } = await importUntilKilled(dataDir, source, 20);
    expect(id).not.toBe('');
    expect(doneAtKill).toBeGreaterThanOrEqual(20);
    expect(doneAtKill).toBeLessThan(count);

    const engine = await h.open({ housekeepingDelayMs: 0 });
    const done = await waitFor(async () => {
      const found = (await engine.handlers['library.imports']({})).items.find((i) => i.id === id);
      return found?.status === 'completed' ? found : undefined;
    }, 60_000);
    // Every file is accounted for once; none was read into a second image.
    expect(done).toMatchObject({ found: count, imported: count, duplicates: 0, skipped: 0, failed: 0 });
    let jobs = 0;
    let cursor: string | undefined;
    const paths = new Set<string>();
    do {
      const page = await engine.handlers['jobs.list']({
        limit: 200,
        view: 'active',
        ...(cursor === undefined ? {} : { cursor }),
      });
      jobs += page.items.length;
      for (const j of page.items) paths.add(j.path!);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(jobs).toBe(count);
    expect(paths.size).toBe(count);
  }, 120_000);
});
