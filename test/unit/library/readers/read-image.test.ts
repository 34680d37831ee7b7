import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { IMAGE_SOURCES, type ImageRead } from '../../../../electron/library/readers/types.js';
import { baseJpeg, baseWebp, jpegWith, webpWith } from '../../../fixtures/images/containers.js';
import { buildExif, unicodeComment } from '../../../fixtures/images/tiff-exif.js';
import { readChunks, writeChunks } from '../../../../electron/media/png/chunks.js';
import { insertChunks, makePng, tEXt } from '../../media/helpers.js';

const INFOTEXT =
  'a moth on a lamp\nNegative prompt: dust\nSteps: 30, Sampler: Euler, CFG scale: 7, Seed: 5, Size: 64x64';

function wellFormed(read: ImageRead): void {
  expect([null, 'png', 'jpeg', 'webp']).toContain(read.format);
  expect(IMAGE_SOURCES).toContain(read.source);
  expect(Array.isArray(read.raw)).toBe(true);
  expect(Array.isArray(read.problems)).toBe(true);
  for (const p of read.problems) expect(typeof p).toBe('string');
}

describe('readImageMetadata', () => {
  it('reports format and pixel size from the header, not the generation size', async () => {
    const read = await readImageMetadata(insertChunks(await makePng(20, 10), [tEXt('parameters', INFOTEXT)]));
    expect([read.format, read.width, read.height]).toEqual(['png', 20, 10]);
    expect([read.settings.width, read.settings.height]).toEqual([64, 64]);
  });

  it('reads text chunks that sit after IDAT', async () => {
    const read = await readImageMetadata(insertChunks(await makePng(), [tEXt('parameters', INFOTEXT)], 'IEND'));
    expect(read.source).toBe('a1111');
    expect(read.settings.prompt).toBe('a moth on a lamp');
  });

  it('reads settings without decoding pixels: a header claiming 60000×60000 and garbage data cost nothing', async () => {
    const chunks = readChunks(insertChunks(await makePng(), [tEXt('parameters', INFOTEXT)]));
    const ihdr = chunks.find((c) => c.type === 'IHDR')!;
    const view = new DataView(ihdr.data.buffer, ihdr.data.byteOffset);
    view.setUint32(0, 60000);
    view.setUint32(4, 60000);
    const idat = chunks.find((c) => c.type === 'IDAT')!;
    idat.data = new Uint8Array(idat.data.length).fill(0x5a);
    const read = await readImageMetadata(writeChunks(chunks));
    expect([read.width, read.height, read.settings.prompt]).toEqual([60000, 60000, 'a moth on a lamp']);
    expect(read.problems).toEqual([]);
  });

  it('tries the readers in order: a generator beats a bare description', async () => {
    const a1111 = await readImageMetadata(
      insertChunks(await makePng(), [tEXt('Comment', 'a note'), tEXt('parameters', INFOTEXT)]),
    );
    expect(a1111.source).toBe('a1111');
    const novelai = insertChunks(await makePng(), [
      tEXt('Description', 'a lantern --ar 1:1 Job ID: 8b6a2c1e-4f3d-4e2a-9c1b-0a1b2c3d4e5f'),
      tEXt('Software', 'NovelAI'),
    ]);
    expect((await readImageMetadata(novelai)).source).toBe('novelai');
  });

  it('uses the A1111 sidecar text only when the file holds no settings', async () => {
    const bare = await readImageMetadata(await baseJpeg(), { sidecarText: INFOTEXT });
    expect(bare.source).toBe('a1111');
    expect(bare.settings.prompt).toBe('a moth on a lamp');
    expect(bare.raw).toEqual([{ key: 'sidecar', text: INFOTEXT }]);
    const embedded = await readImageMetadata(
      insertChunks(await makePng(), [tEXt('parameters', 'inside\nSteps: 1, Seed: 2, Sampler: Euler')]),
      { sidecarText: INFOTEXT },
    );
    expect(embedded.settings.prompt).toBe('inside');
    expect(embedded.raw.map((r) => r.key)).toEqual(['parameters']);
  });

  it('names an empty file and a file that is no image', async () => {
    expect(await readImageMetadata(new Uint8Array())).toEqual({
      format: null,
      source: 'unknown',
      settings: {},
      raw: [],
      problems: ['The file is empty.'],
    });
    const text = await readImageMetadata(new TextEncoder().encode('Steps: 20, Seed: 1'));
    expect(text.format).toBeNull();
    expect(text.problems).toEqual(['The file is not a PNG, JPEG, WebP or AVIF image.']);
  });

  it('goes by content when the extension lies (a JPEG saved as .png)', async () => {
    const jpeg = jpegWith(await baseJpeg(12, 9), { exif: buildExif({ UserComment: unicodeComment(INFOTEXT) }) });
    const read = await readImageMetadata(jpeg);
    expect([read.format, read.width, read.height, read.source]).toEqual(['jpeg', 12, 9, 'a1111']);
  });

  it('keeps the settings before a cut and says the file was cut', async () => {
    const png = insertChunks(await makePng(), [tEXt('parameters', INFOTEXT)]);
    const idat = png.findIndex((_, i) => String.fromCharCode(...png.subarray(i, i + 4)) === 'IDAT');
    const read = await readImageMetadata(png.subarray(0, idat + 6));
    expect(read.settings.prompt).toBe('a moth on a lamp');
    expect(read.problems[0]).toMatch(/cut short inside its "IDAT" chunk/);
  });

  it('never throws on arbitrary bytes, nor on bytes behind a real signature', async () => {
    const signatures = [
      [],
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      [0xff, 0xd8, 0xff],
      [...new TextEncoder().encode('RIFF\x10\0\0\0WEBP')],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...signatures), fc.uint8Array({ maxLength: 600 }), async (head, tail) => {
        wellFormed(await readImageMetadata(Uint8Array.from([...head, ...tail])));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on a damaged EXIF block inside a sound JPEG or WebP', async () => {
    const valid = buildExif(
      { Make: 'm', Software: 's', UserComment: unicodeComment(INFOTEXT), MakerNote: new Uint8Array(9) },
      'MM',
    );
    const jpeg = await baseJpeg(8, 8);
    const webp = await baseWebp(8, 8);
    const exif = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((tail) => Uint8Array.from([0x4d, 0x4d, 0, 42, ...tail])),
      fc
        .array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        })
        .map((flips) => {
          const bytes = Uint8Array.from(valid);
          for (const [at, value] of flips) bytes[at] = value;
          return bytes;
        }),
    );
    await fc.assert(
      fc.asyncProperty(exif, fc.boolean(), async (block, inJpeg) => {
        wellFormed(
          await readImageMetadata(inJpeg ? jpegWith(jpeg, { exif: block }) : webpWith(webp, 8, 8, { exif: block })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on mutated or truncated valid files of every container', async () => {
    const exif = buildExif(
      { Make: 'm', Software: 'NovelAI', ImageDescription: 'd', UserComment: unicodeComment(INFOTEXT, 'le') },
      'II',
    );
    const fixtures = [
      insertChunks(await makePng(16, 16), [tEXt('parameters', INFOTEXT), tEXt('Comment', '{"steps": 3}')]),
      jpegWith(await baseJpeg(16, 16), {
        exif,
        xmp: '<x:xmpmeta><dc:description><rdf:Alt><rdf:li>a</rdf:li></rdf:Alt></dc:description></x:xmpmeta>',
      }),
      webpWith(await baseWebp(16, 16), 16, 16, { exif, xmp: '<x/>' }),
    ];
    const mutation = fc.record({
      file: fc.nat({ max: fixtures.length - 1 }),
      cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      flips: fc.array(
        fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 0, max: 255 })),
        { maxLength: 8 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async ({ file, cut, flips }) => {
        const bytes = Uint8Array.from(fixtures[file]!);
        for (const [where, value] of flips) bytes[Math.floor(where * bytes.length)] = value;
        const end = cut === undefined ? bytes.length : Math.floor(cut * bytes.length);
        wellFormed(await readImageMetadata(bytes.subarray(0, end)));
      }),
      { numRuns: 300 },
    );
  });
});
