import { describe, expect, it } from 'vitest';
import { readDrawthings } from '../../../../electron/library/readers/drawthings.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { encodeTextChunk } from '../../../../electron/media/png/text-chunks.js';
import { baseJpeg, jpegWith } from '../../../fixtures/images/containers.js';
import { insertChunks, makePng } from '../../media/helpers.js';

const SETTINGS = {
  c: 'a lighthouse <at> dusk & "fog"',
  uc: 'blurry',
  model: 'flux_1_schnell_q5p.ckpt',
  sampler: 'Euler A Trailing',
  scale: 4.5,
  seed: 3917467003,
  steps: 8,
  strength: 1,
  size: '768x1024',
  lora: [{ file: 'pixel_art_f16.ckpt', weight: 0.6 }],
};

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The XMP packet Draw Things writes: CreatorTool, the A1111-like description, the JSON settings in exif:UserComment. */
function drawThingsXmp(json: string): string {
  return `<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 6.0.0">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/">
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">a lighthouse&#xA;Steps: 8</rdf:li></rdf:Alt></dc:description>
   <xmp:CreatorTool>Draw Things</xmp:CreatorTool>
   <exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">${escape(json)}</rdf:li></rdf:Alt></exif:UserComment>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>`;
}

const EXPECTED = {
  prompt: 'a lighthouse <at> dusk & "fog"',
  negativePrompt: 'blurry',
  seed: '3917467003',
  steps: 8,
  guidance: 4.5,
  sampler: 'Euler A Trailing',
  model: 'flux_1_schnell_q5p.ckpt',
  width: 768,
  height: 1024,
  loras: [{ name: 'pixel_art_f16.ckpt', weight: 0.6 }],
};

describe('Draw Things reader', () => {
  it('reads the JSON in the exif:UserComment of its XMP, from a PNG iTXt', async () => {
    const xmp = encodeTextChunk('XML:com.adobe.xmp', drawThingsXmp(JSON.stringify(SETTINGS)));
    const read = await readImageMetadata(insertChunks(await makePng(8, 8), [xmp]));
    expect(read.source).toBe('drawthings');
    expect(read.settings).toEqual(EXPECTED);
  });

  it('and from the XMP of a JPEG; a strength under 1 is an image-to-image strength', async () => {
    const xmp = drawThingsXmp(JSON.stringify({ ...SETTINGS, strength: 0.55 }));
    const read = await readImageMetadata(jpegWith(await baseJpeg(), { xmp }));
    expect(read.source).toBe('drawthings');
    expect(read.settings).toEqual({ ...EXPECTED, denoise: 0.55 });
  });

  it('newer files keep the LoRAs under v2.loras', () => {
    const { lora: _, ...rest } = SETTINGS;
    const json = JSON.stringify({ ...rest, v2: { loras: [{ file: 'detail.ckpt', weight: 0.8, mode: 'all' }] } });
    const read = readDrawthings(new Map([['xmp', drawThingsXmp(json)]]));
    expect(read?.settings.loras).toEqual([{ name: 'detail.ckpt', weight: 0.8 }]);
  });

  it('without the JSON, reads the description: prompt, a line starting with -, then the settings line', () => {
    const description =
      'a lighthouse\n-blurry &amp; dark\nSteps: 20, Sampler: Euler Ancestral, Guidance Scale: 4.0, Seed: 4279116933, Size: 640x480, Model: draw_model.ckpt';
    const xmp = `<x:xmpmeta><rdf:RDF><rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang="x-default">${description}</rdf:li></rdf:Alt></dc:description><xmp:CreatorTool>Draw Things</xmp:CreatorTool></rdf:Description></rdf:RDF></x:xmpmeta>`;
    expect(readDrawthings(new Map([['XML:com.adobe.xmp', xmp]]))).toEqual({
      source: 'drawthings',
      settings: {
        prompt: 'a lighthouse',
        negativePrompt: 'blurry & dark',
        seed: '4279116933',
        steps: 20,
        guidance: 4,
        sampler: 'Euler Ancestral',
        model: 'draw_model.ckpt',
        width: 640,
        height: 480,
      },
      problems: [],
    });
  });

  it('says so when the settings are not JSON, and leaves XMP from other tools alone', () => {
    const broken = readDrawthings(new Map([['xmp', drawThingsXmp('{not json')]]));
    expect(broken?.problems).toEqual(['exif:UserComment: not a JSON object']);
    expect(broken?.settings.prompt).toBe('a lighthouse');
    const other = drawThingsXmp('{}').replace('<xmp:CreatorTool>Draw Things', '<xmp:CreatorTool>Photoshop');
    expect(readDrawthings(new Map([['xmp', other]]))).toBeUndefined();
  });
});
