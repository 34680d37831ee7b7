/**
 * `npm run bench -- readers [--sizes 10,100,1000] [--no-import]`: the metadata readers on hostile texts.
 * 1. Time per KB: each text of test/fixtures/hostile-texts.ts at 10 KB, 100 KB and 1 MB through every reader it
 *    reaches (generator readers, sidecar, A1111 parser, the PNG reader of media/), best of a few runs, and the ratio of
 *    the times between sizes: a linear reader's ratio is the size ratio (10), a quadratic one's its square (100).
 * 2. The host while it imports such files: a fresh engine imports PNGs whose `parameters` are 200,000 letters and
 *    6 M letters and a ComfyUI graph of 1 MB; prints how long the import took, the event loop's p99 and worst delay
 *    meanwhile (target p99 < 50 ms), and what reading the same files would cost on the main thread.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/create-engine.js';
import type { Engine } from '../electron/engine/types.js';
import { readA1111Sidecar } from '../electron/library/readers/a1111.js';
import { readImageMetadata } from '../electron/library/readers/read-image.js';
import { READERS } from '../electron/library/readers/registry.js';
import { decodeUserComment } from '../electron/library/readers/user-comment.js';
import { parseParameters } from '../electron/media/png/a1111-parameters.js';
import { readPngMetadata } from '../electron/media/png/read-metadata.js';
import { encodeTextChunk } from '../electron/media/png/text-chunks.js';
import { HOSTILE_TEXTS, nulComment, repeat } from '../test/fixtures/hostile-texts.js';
import { insertChunks, makePng } from '../test/unit/media/helpers.js';
import { memoryKeyring } from './lib/engine-kit.js';
import { bestOf, printTable } from './lib/text-table.js';

const P99_TARGET_MS = 50;

function readEverything(png: Uint8Array, texts: Map<string, string>): void {
  for (const reader of READERS) reader(texts);
  for (const text of texts.values()) {
    readA1111Sidecar(text);
    parseParameters(text);
  }
  readPngMetadata(
    insertChunks(
      png,
      [...texts].map(([key, text]) => encodeTextChunk(key, text)),
    ),
  );
}

function perKb(png: Uint8Array, sizesKb: number[]): void {
  const cases: Array<{ name: string; run(chars: number): () => void }> = [
    ...HOSTILE_TEXTS.map((hostile) => ({
      name: hostile.name,
      run: (chars: number) => {
        const texts = hostile.texts(chars);
        return () => readEverything(png, texts);
      },
    })),
    {
      name: 'EXIF UserComment of NULs that do not end it',
      run: (chars: number) => {
        const bytes = nulComment(chars);
        return () => void decodeUserComment(bytes);
      },
    },
  ];
  const rows = cases.map(({ name, run }) => {
    const ms = sizesKb.map((kb) => bestOf(run(kb * 1024), { minRuns: 3, maxRuns: 20, ms: 200 }));
    const ratios = ms.slice(1).map((t, i) => (t / ms[i]!).toFixed(1));
    return [name, ...ms.map((t, i) => ((t * 1000) / sizesKb[i]!).toFixed(1)), ...ratios, ms[ms.length - 1]!.toFixed(0)];
  });
  const ratioHeads = sizesKb.slice(1).map((kb, i) => `×${kb / sizesKb[i]!} size: time ×`);
  printTable(
    'Readers on hostile texts: µs per KB of text at each size (best of runs), and how the time grows with the size',
    [
      'text',
      ...sizesKb.map((kb) => `µs/KB @${kb >= 1000 ? `${kb / 1000} MB` : `${kb} KB`}`),
      ...ratioHeads,
      `ms @${sizesKb[sizesKb.length - 1]} KB`,
    ],
    rows,
  );
}

interface HostileFile {
  name: string;
  bytes: Uint8Array;
}

async function hostileFiles(png: Uint8Array): Promise<HostileFile[]> {
  const fan = HOSTILE_TEXTS.find((h) => h.name.includes('fan of prompts'))!.texts(1024 * 1024);
  return [
    {
      name: 'parameters of 200,000 letters',
      bytes: insertChunks(png, [encodeTextChunk('parameters', repeat('a', 200_000))]),
    },
    {
      name: 'parameters of 6 M letters (kept to 4 M)',
      bytes: insertChunks(png, [encodeTextChunk('parameters', repeat('b', 6_000_000))]),
    },
    {
      name: 'a ComfyUI graph of 1 MB',
      bytes: insertChunks(
        png,
        [...fan].map(([key, text]) => encodeTextChunk(key, text)),
      ),
    },
  ];
}

async function importWhileMeasuring(files: HostileFile[]): Promise<string[][]> {
  const root = mkdtempSync(join(tmpdir(), 'atelier-bench-readers-'));
  const folder = join(root, 'hostile');
  mkdirSync(folder);
  files.forEach((file, i) => writeFileSync(join(folder, `${i}.png`), file.bytes));
  const warm = join(root, 'warm.png');
  writeFileSync(warm, await makePng(8, 8));
  const engine: Engine = await createEngine(
    {
      dataDir: join(root, 'data'),
      keyring: memoryKeyring(),
    },
    {
      orphanGraceMs: 0,
      maintenanceIntervalMs: 0,
    },
  );
  try {
    // Threads started and warm: the first read pays for them once.
    await engine.handlers['library.import']({ paths: [warm], mode: 'link', watch: false });
    await new Promise((r) => setTimeout(r, 2_000));
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const started = performance.now();
    const { import: summary } = await engine.handlers['library.import']({
      paths: [folder],
      mode: 'copy',
      watch: false,
    });
    let done;
    for (;;) {
      done = (await engine.handlers['library.imports']({})).items.find((i) => i.id === summary.id);
      if (done !== undefined && done.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    loop.disable();
    const p99 = loop.percentile(99) / 1e6 - 1;
    const max = loop.max / 1e6 - 1;
    return [
      [
        `${files.length} files`,
        `${done.imported} imported, ${done.failed} failed`,
        seconds.toFixed(2),
        p99.toFixed(1),
        max.toFixed(1),
        p99 < P99_TARGET_MS ? 'yes' : 'NO',
      ],
    ];
  } finally {
    await engine.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const at = args.indexOf('--sizes');
  const sizesKb = at >= 0 ? args[at + 1]!.split(',').map(Number) : [10, 100, 1000];
  const png = await makePng(16, 16);
  perKb(png, sizesKb);
  if (args.includes('--no-import')) return;

  const files = await hostileFiles(png);
  const inPlace = [];
  for (const file of files) {
    const start = performance.now();
    await readImageMetadata(file.bytes);
    inPlace.push([file.name, (performance.now() - start).toFixed(0)]);
  }
  printTable(
    'What reading each file would hold the loop for, on the main thread (the host never does: it reads on worker threads)',
    ['file', 'ms'],
    inPlace,
  );
  printTable(
    `The host importing them: the event loop meanwhile (target p99 < ${P99_TARGET_MS} ms)`,
    ['import', 'outcome', 'seconds', 'loop p99 ms', 'loop max ms', 'p99 on target'],
    await importWhileMeasuring(files),
  );
}
