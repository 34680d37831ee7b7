import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { truncation } from '../../../../electron/library/import/truncation.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { sniffImage } from '../../../../electron/library/readers/sniff.js';
import { avifWith, baseAvif, box, fullBox } from '../../../fixtures/images/avif.js';
import { a1111Parameters, COMFY_SEED, comfyGraph } from '../../../fixtures/images/tool-files.js';
import { buildExif, unicodeComment } from '../../../fixtures/images/tiff-exif.js';

const u16 = (v: number): number[] => [(v >> 8) & 0xff, v & 0xff];
const u32 = (v: number): number[] => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
const text = (s: string): number[] => [...new TextEncoder().encode(s)];
const ftyp = (major: string, ...compatible: string[]): number[] =>
  box('ftyp', [...text(major), 0, 0, 0, 0, ...compatible.flatMap(text)]);
const ispe = (width: number, height: number): number[] => fullBox('ispe', 0, 0, [...u32(width), ...u32(height)]);

/** A meta box of properties only: a thumbnail-sized `ispe` first, the primary item's second. */
function withProperties(options: { primary?: number; ipma?: boolean }): Uint8Array {
  const ipco = box('ipco', [...ispe(16, 12), ...ispe(640, 480)]);
  // Item 1 (a thumbnail) has property 1, item 2 property 2.
  const ipma = fullBox('ipma', 0, 0, [...u32(2), ...u16(1), 1, 0x81, ...u16(2), 1, 0x82]);
  const iprp = box('iprp', [...ipco, ...(options.ipma === false ? [] : ipma)]);
  const pitm = options.primary === undefined ? [] : fullBox('pitm', 0, 0, u16(options.primary));
  return Uint8Array.from([...ftyp('avif', 'mif1', 'avif'), ...fullBox('meta', 0, 0, [...pitm, ...iprp])]);
}

const PROMPT = 'a lighthouse at dusk, oil painting';
let base: Uint8Array;
let a1111: Uint8Array;

beforeAll(async () => {
  base = await baseAvif(64, 48);
  a1111 = avifWith(base, { exif: buildExif({ UserComment: unicodeComment(a1111Parameters(PROMPT, 1234)) }) });
});

describe('AVIF: sniffed by its ftyp brands', () => {
  it('is AVIF when avif or avis is the major or a compatible brand, whatever the name', () => {
    expect(sniffImage(Uint8Array.from(ftyp('avif', 'mif1'))).format).toBe('avif');
    expect(sniffImage(Uint8Array.from(ftyp('mif1', 'miaf', 'avif'))).format).toBe('avif');
    expect(sniffImage(Uint8Array.from(ftyp('avis', 'msf1'))).format).toBe('avif');
    expect(sniffImage(base).format).toBe('avif');
  });

  it('is nothing Atelier reads when the ISOBMFF file is HEIC or MP4', () => {
    expect(sniffImage(Uint8Array.from(ftyp('heic', 'mif1', 'heic'))).format).toBeNull();
    expect(sniffImage(Uint8Array.from(ftyp('isom', 'iso2', 'mp41'))).format).toBeNull();
  });
});

describe('AVIF: pixel size from the ispe property', () => {
  it("takes the primary item's ispe (through ipma), not the first one in the file", () => {
    expect(sniffImage(withProperties({ primary: 2 }))).toEqual({ format: 'avif', width: 640, height: 480 });
    expect(sniffImage(withProperties({ primary: 1 }))).toEqual({ format: 'avif', width: 16, height: 12 });
  });

  it('falls back to the first ispe when no primary item or association says which', () => {
    expect(sniffImage(withProperties({}))).toEqual({ format: 'avif', width: 16, height: 12 });
    expect(sniffImage(withProperties({ primary: 2, ipma: false }))).toEqual({ format: 'avif', width: 16, height: 12 });
  });

  it('reads the size of a file sharp encoded', () => {
    expect(sniffImage(base)).toEqual({ format: 'avif', width: 64, height: 48 });
  });
});

describe('AVIF: metadata items', () => {
  it('reads A1111 parameters from the Exif item UserComment: prompt, seed, steps', async () => {
    const read = await readImageMetadata(a1111);
    expect(read.problems).toEqual([]);
    expect(read).toMatchObject({ format: 'avif', width: 64, height: 48, source: 'a1111' });
    expect(read.settings).toMatchObject({ prompt: PROMPT, seed: '1234', steps: 30 });
    expect(read.raw.map((r) => r.key)).toContain('exif:UserComment');
  });

  it('finds the TIFF header after the offset the Exif item gives (libheif writes 6 and `Exif\\0\\0`)', async () => {
    const exif = buildExif({ UserComment: unicodeComment(a1111Parameters(PROMPT, 99)) }, 'II');
    const shifted = avifWith(base, { exif, exifPrefix: Uint8Array.from([0xde, 0xad, 0xbe, 0xef]) });
    expect((await readImageMetadata(shifted)).settings.seed).toBe('99');
    const libheif = avifWith(base, { exif, exifPrefix: new TextEncoder().encode('Exif\0\0') });
    expect((await readImageMetadata(libheif)).settings.seed).toBe('99');
  });

  it('skips an `Exif\\0\\0` header the stated offset does not count', async () => {
    const exif = buildExif({ UserComment: unicodeComment(a1111Parameters(PROMPT, 77)) });
    const uncounted = avifWith(base, { exif, exifPrefix: new TextEncoder().encode('Exif\0\0'), exifOffset: 0 });
    expect((await readImageMetadata(uncounted)).settings.seed).toBe('77');
  });

  it("reads the Exif item sharp's own AVIF writer (libheif) makes", async () => {
    const made = await sharp(Buffer.from(base))
      .avif({ effort: 0 })
      .withMetadata({ exif: { IFD0: { ImageDescription: 'a red fox in snow', Software: 'ComfyUI' } } })
      .toBuffer();
    const read = await readImageMetadata(new Uint8Array(made));
    expect(read.raw).toContainEqual({ key: 'exif:ImageDescription', text: 'a red fox in snow' });
    expect(read.raw).toContainEqual({ key: 'exif:Software', text: 'ComfyUI' });
  });

  it('reads a ComfyUI graph from EXIF Make/Model `workflow:`/`prompt:` texts, as ComfyUI writes WebP and AVIF', async () => {
    const exif = buildExif({ Make: 'workflow:{"nodes":[]}', Model: `prompt:${comfyGraph('a paper crane')}` }, 'II');
    const read = await readImageMetadata(avifWith(base, { exif }));
    expect(read.source).toBe('comfyui');
    expect(read.settings).toMatchObject({ prompt: 'a paper crane', seed: COMFY_SEED, steps: 25 });
  });

  it('reads the XMP item (a mime item of type application/rdf+xml)', async () => {
    const xmp =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><dc:description><rdf:Alt>' +
      '<rdf:li xml:lang="x-default">a quiet harbour</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>';
    const read = await readImageMetadata(avifWith(base, { xmp }));
    expect(read.raw).toContainEqual({ key: 'xmp', text: xmp });
    expect(read.description).toBe('a quiet harbour');
  });

  it("reads an AVIF another project wrote (Image MetaHub's fixture, origin beside it): its size and whole XMP", async () => {
    const file = readFileSync(join(import.meta.dirname, '../../../fixtures/avif/imagemetahub-comfy-xmp.avif'));
    const read = await readImageMetadata(new Uint8Array(file));
    expect(read).toMatchObject({ format: 'avif', width: 2, height: 2, problems: [] });
    const xmp = read.raw.find((r) => r.key === 'xmp')?.text ?? '';
    expect(xmp.startsWith('<?xpacket begin=')).toBe(true);
    expect(xmp).toContain('AVIF fixture prompt');
    expect(xmp.trimEnd().endsWith('<?xpacket end="w"?>')).toBe(true);
    // The ComfyUI frontend's way: both graphs as XMP comfy:prompt and comfy:workflow, traced like a PNG's.
    expect(read.source).toBe('comfyui');
    expect(read.settings).toMatchObject({
      prompt: 'AVIF fixture prompt',
      negativePrompt: 'fixture negative',
      seed: '42',
      steps: 20,
      model: 'fixture-model.safetensors',
    });
  });

  it('reads a file with no metadata items as an AVIF of its size, with nothing to say', async () => {
    const read = await readImageMetadata(base);
    expect(read).toMatchObject({ format: 'avif', width: 64, height: 48, source: 'unknown', raw: [] });
  });
});

describe('AVIF: a file cut short', () => {
  it('is refused when it ends inside its mdat, and taken whole', () => {
    expect(truncation(a1111, 'avif')).toBeNull();
    expect(truncation(a1111.subarray(0, a1111.length - 1), 'avif')).toMatch(/cut short/);
  });

  it('is refused when its mdat claims more bytes than the file holds, though every item is inside', () => {
    const longer = Uint8Array.from(a1111);
    const mdat = findMdat(longer);
    longer.set(u32(longer.length - mdat + 100), mdat);
    expect(truncation(longer, 'avif')).toMatch(/cut short/);
  });

  it('is refused when an item lies past the end, though its mdat says "to the end of the file"', () => {
    const open = Uint8Array.from(a1111);
    const mdat = findMdat(a1111);
    open.set(u32(0), mdat); // size 0: the box runs to the end of the file
    expect(truncation(open, 'avif')).toBeNull();
    expect(truncation(open.subarray(0, open.length - 3), 'avif')).toMatch(/cut short/);
  });

  it('keeps what came before the cut and names it, never throwing', async () => {
    const read = await readImageMetadata(a1111.subarray(0, a1111.length - 10));
    expect(read.format).toBe('avif');
    expect(read.problems.join(' ')).toMatch(/cut short/);
  });
});

/** Where the mdat box starts. */
function findMdat(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (String.fromCharCode(...bytes.subarray(at + 4, at + 8)) !== 'mdat') at += view.getUint32(at);
  return at;
}
