import { describe, expect, it } from 'vitest';
import { allRawTexts, rawOrigin } from '../../../../renderer/src/viewer/raw-origin';

describe('where a text sits in the file', () => {
  it('names PNG text chunks, EXIF tags, XMP, IPTC, the sidecar and stealth data in words', () => {
    expect(rawOrigin('parameters')).toBe('PNG text “parameters”');
    expect(rawOrigin('exif:UserComment')).toBe('EXIF UserComment');
    expect(rawOrigin('exif:ImageDescription')).toBe('EXIF ImageDescription');
    expect(rawOrigin('xmp')).toBe('XMP packet');
    expect(rawOrigin('iptc:Caption')).toBe('IPTC Caption');
    expect(rawOrigin('sidecar')).toBe('Text file beside the image');
    expect(rawOrigin('stealth')).toBe('Hidden in the pixels (stealth)');
  });

  it('copies every text at once, each under its origin', () => {
    expect(
      allRawTexts([
        { key: 'prompt', text: '{"3":{}}' },
        { key: 'exif:Make', text: 'workflow:{}' },
      ]),
    ).toBe('[PNG text “prompt”]\n{"3":{}}\n\n[EXIF Make]\nworkflow:{}');
  });
});
