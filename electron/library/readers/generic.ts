import type { GeneratorRead, TextMap } from './types.js';
import { xmpOf, xmpProperty } from './xmp.js';

/** Cameras fill ImageDescription with their own name or blanks: that is not a description of the picture. */
function meaningful(text: string | undefined): string | undefined {
  const t = text?.trim();
  if (t === undefined || t === '' || /^(OLYMPUS DIGITAL CAMERA|SONY DSC|DCIM|default)$/i.test(t)) return undefined;
  return t;
}

function xmpDescriptionOf(texts: TextMap): string | undefined {
  const xmp = xmpOf(texts);
  return xmp === undefined ? undefined : xmpProperty(xmp, 'dc:description');
}

/**
 * Anything else: EXIF ImageDescription, XMP dc:description, IPTC caption, PNG Description/Comment. Kept as the description
 * (searchable), never as a prompt: nothing says a caption is what produced the image, and Reuse must not pretend so.
 */
export function readGeneric(texts: TextMap): GeneratorRead | undefined {
  const description =
    meaningful(texts.get('exif:ImageDescription')) ??
    meaningful(xmpDescriptionOf(texts)) ??
    meaningful(texts.get('iptc:Caption')) ??
    meaningful(texts.get('Description')) ??
    meaningful(texts.get('Comment'));
  if (description === undefined) return undefined;
  return { source: 'unknown', settings: {}, description, problems: [] };
}
