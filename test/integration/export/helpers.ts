import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportSummary } from '../../../shared/contract.js';
import type { Engine } from '../../../electron/engine/types.js';
import { waitFor } from '../engine/harness.js';

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** 0: stored, 8: deflated. */
  method: number;
}

// Python's zipfile checks each entry's CRC while reading: a corrupt or re-encoded archive fails here.
const READ_ZIP = `
import sys, json, zipfile, base64
with zipfile.ZipFile(sys.argv[1]) as z:
    print(json.dumps([{"name": i.filename, "method": i.compress_type, "data": base64.b64encode(z.read(i)).decode()} for i in z.infolist()]))
`;

export function readZip(path: string): ZipEntry[] {
  const out = execFileSync('python3', ['-c', READ_ZIP, path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(out) as Array<{ name: string; method: number; data: string }>).map((e) => ({
    ...e,
    data: Buffer.from(e.data, 'base64'),
  }));
}

export function readZipBuffer(bytes: Buffer): ZipEntry[] {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-zip-'));
  const path = join(dir, 'download.zip');
  writeFileSync(path, bytes);
  return readZip(path);
}

/** Writes the files into a new folder outside the library and imports it linked (the originals stay there). */
export async function linkedLibrary(
  engine: Engine,
  files: Array<{ name: string; bytes: Uint8Array }>,
): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'atelier-export-originals-'));
  mkdirSync(root, { recursive: true });
  for (const f of files) writeFileSync(join(root, f.name), f.bytes);
  const { import: started } = await engine.handlers['library.import']({ paths: [root], mode: 'link', watch: false });
  await waitFor(
    async () =>
      (await engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    30_000,
  );
  return root;
}

export async function exportDone(engine: Engine, id: string): Promise<ExportSummary> {
  return waitFor(async () => {
    const found = (await engine.handlers['export.list']({})).items.find((e) => e.id === id);
    return found !== undefined && found.status !== 'running' && found.status !== 'ready' ? found : undefined;
  }, 30_000);
}

/** The linked original a job's image came from, by file name in the import folder. */
export async function originalsByPath(engine: Engine): Promise<Map<string, string>> {
  const page = await engine.handlers['jobs.list']({ limit: 500, view: 'active' });
  return new Map(page.items.flatMap((j) => j.images.map((i) => [i.id, j.path ?? ''] as const)));
}
