import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readA1111Sidecar } from '../../../../electron/library/readers/a1111.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { READERS } from '../../../../electron/library/readers/registry.js';
import { decodeUserComment } from '../../../../electron/library/readers/user-comment.js';
import { parseParameters } from '../../../../electron/media/png/a1111-parameters.js';
import { readPngMetadata } from '../../../../electron/media/png/read-metadata.js';
import { encodeTextChunk } from '../../../../electron/media/png/text-chunks.js';
import { truncation } from '../../../../electron/library/import/truncation.js';
import { sniffImage } from '../../../../electron/library/readers/sniff.js';
import { hostileAvifs } from '../../../fixtures/images/avif-hostile.js';
import { baseWebp, webpWith } from '../../../fixtures/images/containers.js';
import { asciiComment, buildExif } from '../../../fixtures/images/tiff-exif.js';
import {
  FRAGMENTS,
  HOSTILE_TEXTS,
  KEYS,
  NUL_STALL,
  nulComment,
  PREFIXES,
  repeat,
  SUFFIXES,
} from '../../../fixtures/hostile-texts.js';
import { insertChunks, makePng } from '../../media/helpers.js';

/**
 * Each case is as long as made the quadratic reader it was built against take about 40 s (80k characters of one
 * took 9.6 s); a linear reader takes milliseconds. No time is asserted: a stall shows as the test's timeout.
 */

let png: Uint8Array;
beforeAll(async () => {
  png = await makePng(8, 8);
});

/** Every entry point a file's texts reach: each generator reader, the sidecar and EXIF readers, the PNG reader of media/. */
function readEverything(texts: Map<string, string>): void {
  for (const reader of READERS) {
    const read = reader(texts);
    if (read !== undefined) expect(Array.isArray(read.problems)).toBe(true);
  }
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

describe('readers on long adversarial texts', () => {
  for (const hostile of HOSTILE_TEXTS) {
    it(`${hostile.name} (${hostile.stall / 1000}k characters)`, () => {
      readEverything(hostile.texts(hostile.stall));
    });
  }

  it('EXIF UserComment bytes with NULs that do not end it', () => {
    expect(decodeUserComment(nulComment(NUL_STALL)).endsWith('x')).toBe(true);
  });

  it('the EXIF tags of a WebP with NULs that do not end them', async () => {
    const nuls = `${repeat('\0', NUL_STALL)}x`;
    const exif = buildExif({ ImageDescription: nuls, Software: nuls, UserComment: asciiComment(nuls) });
    const read = await readImageMetadata(webpWith(await baseWebp(8, 8), 8, 8, { exif }));
    expect(read.raw.map((r) => r.key)).toContain('exif:Software');
  });

  it('the whole read of a PNG whose parameters are 4 M letters', async () => {
    const read = await readImageMetadata(insertChunks(png, [encodeTextChunk('parameters', repeat('a', 4_000_000))]));
    expect(read.settings.prompt).toHaveLength(4_000_000);
  });

  it('any fragment repeated to hundreds of KB, framed any way, in any key', () => {
    const text = fc.record({
      prefix: fc.constantFrom(...PREFIXES),
      fragment: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ minLength: 1, maxLength: 6 })),
      suffix: fc.constantFrom(...SUFFIXES),
      chars: fc.integer({ min: 100_000, max: 300_000 }),
      key: fc.constantFrom(...KEYS),
    });
    fc.assert(
      fc.property(text, ({ prefix, fragment, suffix, chars, key: [key, extra] }) => {
        readEverything(new Map([...Object.entries(extra), [key, prefix + repeat(fragment, chars) + suffix]]));
      }),
      { numRuns: 40 },
    );
  });
});

describe('AVIF boxes built to make a walker loop, recurse or allocate', () => {
  for (const hostile of hostileAvifs()) {
    it(`${hostile.name} (${Math.round(hostile.bytes.length / 1000)} kB)`, async () => {
      expect(sniffImage(hostile.bytes).format).toBe('avif');
      truncation(hostile.bytes, 'avif');
      const read = await readImageMetadata(hostile.bytes);
      expect(read.format).toBe('avif');
      if (hostile.problem !== undefined) expect(read.problems.join('\n')).toMatch(hostile.problem);
    });
  }
});
