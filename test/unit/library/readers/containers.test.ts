import { describe, expect, it } from 'vitest';
import { readContainerTexts } from '../../../../electron/library/readers/containers.js';
import { MAX_TEXT_CHARS } from '../../../../electron/library/readers/text-cap.js';
import { baseJpeg, baseWebp, jpegWith, webpWith } from '../../../fixtures/images/containers.js';
import { asciiComment, buildExif, unicodeComment } from '../../../fixtures/images/tiff-exif.js';
import { insertChunks, iTXt, makePng, tEXt, zTXt } from '../../media/helpers.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
function utf8tEXt(keyword: string, text: string) {
  const key = utf8(keyword);
  const body = utf8(text);
  const data = new Uint8Array(key.length + 1 + body.length);
  data.set(key, 0);
  data.set(body, key.length + 1);
  return { type: 'tEXt', data };
}
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang="x-default">a quiet harbour</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>';

describe('readContainerTexts: PNG', () => {
  it('reads tEXt, zTXt and iTXt before and after IDAT', async () => {
    let png = insertChunks(await makePng(), [tEXt('a', 'one'), zTXt('b', 'two')]);
    png = insertChunks(png, [iTXt('c', 'drei ü', true)], 'IEND');
    const out = await readContainerTexts(png, 'png');
    expect(out.raw).toEqual([
      { key: 'a', text: 'one' },
      { key: 'b', text: 'two' },
      { key: 'c', text: 'drei ü' },
    ]);
    expect(out.problems).toEqual([]);
  });

  it('reads UTF-8 written into tEXt as UTF-8, and real Latin-1 as Latin-1', async () => {
    const png = insertChunks(await makePng(), [utf8tEXt('parameters', 'renard roux, 狐'), tEXt('Comment', 'café')]);
    const out = await readContainerTexts(png, 'png');
    expect(out.texts.get('parameters')).toBe('renard roux, 狐');
    expect(out.texts.get('Comment')).toBe('café');
  });

  it('keeps the texts before a cut, and says the file was cut', async () => {
    const png = insertChunks(await makePng(), [tEXt('parameters', 'kept'), tEXt('later', 'x'.repeat(500))]);
    const at = png.length - 12 - 200; // inside the second text chunk
    const out = await readContainerTexts(png.subarray(0, at - 100), 'png');
    expect(out.texts.get('parameters')).toBe('kept');
    expect(out.texts.has('later')).toBe(false);
    expect(out.problems.join(' ')).toMatch(/cut short inside its "tEXt" chunk/);
  });

  it('caps a huge text at 4 MB and says so', async () => {
    const huge = 'a'.repeat(MAX_TEXT_CHARS + 1000);
    const out = await readContainerTexts(insertChunks(await makePng(), [tEXt('Comment', huge)]), 'png');
    expect(out.texts.get('Comment')!.length).toBe(MAX_TEXT_CHARS);
    expect(out.problems).toEqual([expect.stringMatching(/"Comment" is larger than 4 MB/)]);
  });

  it('cuts a huge UTF-8 tEXt at a character boundary, still as UTF-8', async () => {
    // 3 bytes a character: past the byte cut (4 bytes a kept character), so the cut lands inside a character.
    const huge = '狐'.repeat(MAX_TEXT_CHARS * 1.5);
    const out = await readContainerTexts(insertChunks(await makePng(), [utf8tEXt('parameters', huge)]), 'png');
    expect(out.texts.get('parameters')).toBe('狐'.repeat(MAX_TEXT_CHARS));
    expect(out.problems).toEqual([expect.stringMatching(/"parameters" is larger than 4 MB/)]);
  });

  it('stops at a chunk whose length claims 4 GB, keeping what came before', async () => {
    const png = insertChunks(await makePng(), [tEXt('parameters', 'kept'), tEXt('liar', 'short')]);
    const liar = png.findIndex((_, i) => String.fromCharCode(...png.subarray(i, i + 8)) === 'tEXtliar');
    png.set([0xff, 0xff, 0xff, 0xf0], liar - 4);
    const out = await readContainerTexts(png, 'png');
    expect(out.raw).toEqual([{ key: 'parameters', text: 'kept' }]);
    expect(out.problems).toEqual(['The file is cut short inside its "tEXt" chunk; what came before it was read.']);
  });

  it('names a damaged compressed chunk and keeps the rest', async () => {
    const broken = { type: 'zTXt', data: Uint8Array.from([...utf8('bad'), 0, 0, 1, 2, 3]) };
    const out = await readContainerTexts(insertChunks(await makePng(), [broken, tEXt('good', 'yes')]), 'png');
    expect(out.texts.get('good')).toBe('yes');
    expect(out.problems).toEqual([
      'A zTXt chunk could not be decoded (damaged, or over 16 MB unpacked) and was skipped.',
    ]);
  });
});

describe('readContainerTexts: EXIF and XMP in JPEG and WebP', () => {
  const fields = {
    Make: 'workflow:{"n":1}',
    Model: 'prompt:{"3":{}}',
    Software: 'Fooocus v2.5',
    ImageDescription: 'a description',
    MakerNote: utf8('fooocus'),
  };

  for (const endian of ['be', 'le'] as const) {
    for (const tiff of ['MM', 'II'] as const) {
      it(`decodes a UNICODE UserComment in UTF-16 ${endian.toUpperCase()} (TIFF ${tiff}) from JPEG`, async () => {
        const exif = buildExif({ ...fields, UserComment: unicodeComment('a fox, ünïcode\nSteps: 20', endian) }, tiff);
        const out = await readContainerTexts(jpegWith(await baseJpeg(), { exif }), 'jpeg');
        expect(out.texts.get('exif:UserComment')).toBe('a fox, ünïcode\nSteps: 20');
      });
    }
  }

  it('reads ASCII and unprefixed UserComments, the IFD0 tags, MakerNote and XMP from JPEG', async () => {
    const exif = buildExif({ ...fields, UserComment: asciiComment('plain ascii') });
    const out = await readContainerTexts(jpegWith(await baseJpeg(), { exif, xmp: XMP }), 'jpeg');
    expect(Object.fromEntries(out.texts)).toEqual({
      'exif:Make': 'workflow:{"n":1}',
      'exif:Model': 'prompt:{"3":{}}',
      'exif:Software': 'Fooocus v2.5',
      'exif:ImageDescription': 'a description',
      'exif:UserComment': 'plain ascii',
      'exif:MakerNote': 'fooocus',
      xmp: XMP,
    });
    const bare = await readContainerTexts(
      jpegWith(await baseJpeg(), { exif: buildExif({ UserComment: utf8('{"prompt": 1}') }) }),
      'jpeg',
    );
    expect(bare.texts.get('exif:UserComment')).toBe('{"prompt": 1}');
  });

  it('reads EXIF (with or without the Exif header) and XMP from WebP', async () => {
    const exif = buildExif({ ...fields, UserComment: unicodeComment('webp words', 'le') }, 'II');
    const webp = webpWith(await baseWebp(20, 10), 20, 10, { exif, xmp: XMP });
    const out = await readContainerTexts(webp, 'webp');
    expect(out.texts.get('exif:UserComment')).toBe('webp words');
    expect(out.texts.get('exif:Make')).toBe('workflow:{"n":1}');
    expect(out.texts.get('xmp')).toBe(XMP);
    const prefixed = webpWith(await baseWebp(20, 10), 20, 10, {
      exif: Uint8Array.from([...utf8('Exif\0\0'), ...exif]),
    });
    expect((await readContainerTexts(prefixed, 'webp')).texts.get('exif:Software')).toBe('Fooocus v2.5');
  });

  it('keeps what came before a cut JPEG segment and says so', async () => {
    const jpeg = jpegWith(await baseJpeg(), { xmp: XMP, exif: buildExif({ Software: 'x'.repeat(300) }) });
    // The EXIF segment comes first: cut inside it.
    const out = await readContainerTexts(jpeg.subarray(0, 60), 'jpeg');
    expect(out.raw).toEqual([]);
    expect(out.problems).toEqual(['The file is cut short inside a JPEG segment; what came before it was read.']);
  });
});
