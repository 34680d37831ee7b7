import { describe, expect, it } from 'vitest';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { baseJpeg, jpegWith } from '../../../fixtures/images/containers.js';

const JOB =
  'an ugly troll using a computer --ar 2:1 --niji 6 --no red, blue Job ID: bb9dd2e0-2352-4506-942b-9ac923610b8d';

/** A JPEG APP13 segment: Photoshop 3.0 image resources holding one IPTC-NAA block with a caption (2:120). */
function app13Caption(caption: string): Uint8Array {
  const text = new TextEncoder().encode(caption);
  const iptc = [0x1c, 1, 90, 0, 3, 0x1b, 0x25, 0x47, 0x1c, 2, 120, text.length >> 8, text.length & 0xff, ...text];
  const resource = [
    ...new TextEncoder().encode('8BIM'),
    0x04,
    0x04,
    0,
    0,
    ...[24, 16, 8, 0].map((shift) => (iptc.length >>> shift) & 0xff),
    ...iptc,
    ...(iptc.length % 2 === 1 ? [0] : []),
  ];
  const body = [...new TextEncoder().encode('Photoshop 3.0\0'), ...resource];
  const length = body.length + 2;
  return Uint8Array.from([0xff, 0xed, length >> 8, length & 0xff, ...body]);
}

describe('Midjourney and Niji downloads', () => {
  it('read from the XMP dc:description of a JPEG', async () => {
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang="x-default">${JOB}</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const read = await readImageMetadata(jpegWith(await baseJpeg(), { xmp }));
    expect(read.source).toBe('midjourney');
    expect(read.settings).toEqual({
      prompt: 'an ugly troll using a computer',
      negativePrompt: 'red, blue',
      model: 'niji 6',
    });
  });

  it('read from the IPTC caption of a JPEG (APP13), in UTF-8', async () => {
    const jpeg = await baseJpeg();
    const withIptc = Uint8Array.from([...jpeg.subarray(0, 2), ...app13Caption(`テスト ${JOB}`), ...jpeg.subarray(2)]);
    const read = await readImageMetadata(withIptc);
    expect(read.raw).toContainEqual({ key: 'iptc:Caption', text: `テスト ${JOB}` });
    expect(read.source).toBe('midjourney');
    expect(read.settings.prompt).toBe('テスト an ugly troll using a computer');
  });

  it('an IPTC caption without a Job ID is kept as the description', async () => {
    const jpeg = await baseJpeg();
    const withIptc = Uint8Array.from([...jpeg.subarray(0, 2), ...app13Caption('harbour at dawn'), ...jpeg.subarray(2)]);
    const read = await readImageMetadata(withIptc);
    expect(read.source).toBe('unknown');
    expect(read.description).toBe('harbour at dawn');
  });
});
