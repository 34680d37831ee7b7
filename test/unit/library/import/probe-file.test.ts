import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { probeFile } from '../../../../electron/library/import/probe-file.js';
import { toolFiles } from '../../../fixtures/images/tool-files.js';

const dir = mkdtempSync(join(tmpdir(), 'atelier-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAGIC = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [0x52, 0x49, 0x46, 0x46, 0x10, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
];

describe('probeFile', () => {
  it('never throws on any bytes, image-like or not: it answers an image, or skipped/failed with a reason', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom([], ...MAGIC), fc.uint8Array({ maxLength: 2_000 }), async (magic, rest) => {
        const path = join(dir, `f${(n += 1)}`);
        writeFileSync(path, Uint8Array.from([...magic, ...rest]));
        const probe = await probeFile(path);
        if (probe.kind === 'image') expect(probe.sha256).toMatch(/^[0-9a-f]{64}$/);
        else expect(probe.reason.length).toBeGreaterThan(10);
      }),
      { numRuns: 150 },
    );
  });

  it('skips a file that holds no image (empty, text, bytes of no image format) with its reason: never a failure', async () => {
    let n = 0;
    const text = fc.string({ maxLength: 500 }).map((t) => new TextEncoder().encode(`#${t}`));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant(new Uint8Array(0)), text), async (bytes) => {
        const path = join(dir, `__init__${(n += 1)}.py`);
        writeFileSync(path, bytes);
        const probe = await probeFile(path);
        expect(probe.kind).toBe('skipped');
        if (probe.kind === 'skipped') expect(probe.reason).toMatch(bytes.length === 0 ? /empty/ : /Not a PNG/);
      }),
      { numRuns: 60 },
    );
  });

  it('reads every cut of a real file as cut short (never as a whole image) and the whole file as an image', async () => {
    for (const file of await toolFiles('cut')) {
      const path = join(dir, file.name);
      writeFileSync(path, file.bytes);
      expect((await probeFile(path)).kind, file.name).toBe('image');
      for (const fraction of [0.3, 0.6, 0.95]) {
        writeFileSync(path, file.bytes.subarray(0, Math.floor(file.bytes.length * fraction)));
        const probe = await probeFile(path);
        expect(probe.kind, `${file.name} at ${fraction}`).toBe('failed');
      }
    }
  });

  it('hashes the content: the SHA-256 of the bytes, whatever the name', async () => {
    const [file] = await toolFiles('hash');
    const path = join(dir, 'name-does-not-matter.txt');
    writeFileSync(path, file!.bytes);
    const probe = await probeFile(path);
    const { createHash } = await import('node:crypto');
    expect(probe).toMatchObject({
      kind: 'image',
      format: 'png',
      sha256: createHash('sha256').update(file!.bytes).digest('hex'),
    });
  });
});
