import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iptcCaption } from '../../../../electron/library/readers/iptc.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { baseJpeg } from '../../../fixtures/images/containers.js';

const header = [...new TextEncoder().encode('Photoshop 3.0\0')];
const resource = (iptc: number[], name: number[] = [0, 0]) => [
  ...new TextEncoder().encode('8BIM'),
  0x04,
  0x04,
  ...name,
  ...[24, 16, 8, 0].map((shift) => (iptc.length >>> shift) & 0xff),
  ...iptc,
];

describe('IPTC captions in JPEG APP13', () => {
  it('finds the caption (2:120) after other records, behind a named resource', () => {
    const caption = [...new TextEncoder().encode('a harbour')];
    const records = [0x1c, 2, 5, 0, 1, 0x41, 0x1c, 2, 120, 0, caption.length, ...caption];
    expect(iptcCaption(Uint8Array.from([...header, ...resource(records, [3, 0x61, 0x62, 0x63])]))).toBe('a harbour');
  });

  it('answers nothing for a record that runs past its block or an extended length', () => {
    expect(iptcCaption(Uint8Array.from([...header, ...resource([0x1c, 2, 120, 0, 40, 0x41])]))).toBeUndefined();
    expect(
      iptcCaption(Uint8Array.from([...header, ...resource([0x1c, 2, 120, 0x80, 4, 0, 0, 0, 1, 0x41])])),
    ).toBeUndefined();
  });

  it('never throws on arbitrary bytes, alone or as an APP13 segment of a sound JPEG', async () => {
    const jpeg = await baseJpeg(8, 8);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.boolean(), async (tail, named) => {
        const body = Uint8Array.from([...header, ...(named ? new TextEncoder().encode('8BIM\x04\x04') : []), ...tail]);
        iptcCaption(body);
        const length = body.length + 2;
        const segment = [0xff, 0xed, length >> 8, length & 0xff, ...body];
        const read = await readImageMetadata(
          Uint8Array.from([...jpeg.subarray(0, 2), ...segment, ...jpeg.subarray(2)]),
        );
        expect(read.format).toBe('jpeg');
      }),
      { numRuns: 200 },
    );
  });
});
