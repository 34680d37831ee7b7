import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportSummary } from '../../shared/contract.js';
import type { Engine } from '../../electron/engine/types.js';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { startHarness, waitFor, type Harness } from '../integration/engine/harness.js';

const child = fileURLToPath(new URL('./import-once-child.ts', import.meta.url));

/** A name whose bytes are not UTF-8 (Latin-1 "é" and a stray 0xff): what old cameras and Windows zips leave behind. */
const badName = (dir: string, stem: string, ext = ''): Buffer =>
  Buffer.concat([Buffer.from(`${dir}/${stem}-`), Buffer.from([0xe9, 0xff]), Buffer.from(ext)]);

async function importDone(engine: Engine, id: string): Promise<ImportSummary> {
  return waitFor(async () => {
    const found = (await engine.handlers['library.imports']({})).items.find((i) => i.id === id);
    return found !== undefined && found.status !== 'running' ? found : undefined;
  }, 30_000);
}

let h: Harness | undefined;
let outside = '';
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  if (outside !== '') rmSync(outside, { recursive: true, force: true });
});

describe('files and folders an import cannot open', () => {
  it('a name that is not valid UTF-8 (file or folder) is reported as such, never as "gone", and the rest is imported', async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-names-'));
    const [good, other, third] = await toolFiles('utf');
    writeFileSync(join(outside, good!.name), good!.bytes);
    writeFileSync(badName(outside, 'photo', '.png'), other!.bytes);
    mkdirSync(badName(outside, 'album'));
    writeFileSync(Buffer.concat([badName(outside, 'album'), Buffer.from(`/${third!.name}`)]), third!.bytes);
    h = await startHarness({ housekeepingDelayMs: 0 });
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [outside],
      mode: 'link',
      watch: false,
    });
    const done = await importDone(h.engine, started.id);
    expect(done).toMatchObject({ status: 'completed', imported: 1, failed: 2 });
    const reasons = done.problems.map((p) => p.reason).sort();
    expect(reasons).toEqual([
      expect.stringMatching(/^This file's name is not valid text \(UTF-8\).*Rename the file/),
      expect.stringMatching(/^This folder's name is not valid text \(UTF-8\).*Rename the folder/),
    ]);
    expect(done.problems.map((p) => p.path).every((path) => path.startsWith(outside) && path.includes('\uFFFD'))).toBe(
      true,
    );
    // The host is alive and the good file is in the library.
    expect((await h.engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items.map((j) => j.path)).toEqual([
      join(outside, good!.name),
    ]);
  }, 60_000);

  it('a sub-folder it may not list is reported per folder in the import, and the rest is imported', async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-unreadable-'));
    const source = join(outside, 'outputs');
    const dataDir = join(outside, 'data');
    const [good, hidden] = await toolFiles('perm');
    mkdirSync(join(source, 'open'), { recursive: true });
    mkdirSync(join(source, 'private'));
    writeFileSync(join(source, 'open', good!.name), good!.bytes);
    writeFileSync(join(source, 'private', hidden!.name), hidden!.bytes);
    mkdirSync(dataDir);
    chmodSync(outside, 0o755);
    // Root reads any folder: the import runs as "nobody" then, for whom a root-owned 0700 folder is closed.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(dataDir, 65534, 65534);
    chmodSync(join(source, 'private'), asRoot ? 0o700 : 0o000);
    try {
      const proc = spawn(process.execPath, ['--import', 'tsx', child], {
        env: { ...process.env, DATA_DIR: dataDir, SOURCE_DIR: source },
        stdio: ['ignore', 'pipe', 'inherit'],
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      let out = '';
      proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve, reject) => {
        proc.on('error', reject);
        proc.on('exit', resolve);
      });
      expect(code).toBe(0);
      const done = JSON.parse(out.trim().split('\n').pop()!) as ImportSummary;
      expect(done).toMatchObject({ status: 'completed', imported: 1, failed: 1 });
      expect(done.problems).toEqual([
        {
          path: join(source, 'private'),
          reason: expect.stringMatching(/^This folder was not imported: Atelier is not allowed to open it\./),
          status: 'failed',
        },
      ]);
    } finally {
      chmodSync(join(source, 'private'), 0o700);
    }
  }, 90_000);
});
