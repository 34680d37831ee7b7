import type { GeneratorRead, TextMap } from './types.js';

/** XMP keeps the description as `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">…</rdf:li>`. */
const XMP_DESCRIPTION = /<dc:description\b[^>]*>[\s\S]*?<rdf:li\b[^>]*>([\s\S]*?)<\/rdf:li>/;
const XMP_ATTRIBUTE = /\bdc:description="([^"]*)"/;

function xmlText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d) % 0x110000))
    .replace(/&amp;/g, '&');
}

function xmpDescription(xmp: string | undefined): string | undefined {
  if (xmp === undefined) return undefined;
  const match = XMP_DESCRIPTION.exec(xmp) ?? XMP_ATTRIBUTE.exec(xmp);
  return match ? xmlText(match[1]!) : undefined;
}

/** Cameras fill ImageDescription with their own name or blanks: that is not a description of the picture. */
function meaningful(text: string | undefined): string | undefined {
  const t = text?.trim();
  if (t === undefined || t === '' || /^(OLYMPUS DIGITAL CAMERA|SONY DSC|DCIM|default)$/i.test(t)) return undefined;
  return t;
}

/**
 * Anything else: EXIF ImageDescription, XMP dc:description, PNG Description/Comment. Kept as the description
 * (searchable), never as a prompt: nothing says a caption is what produced the image, and Reuse must not pretend so.
 */
export function readGeneric(texts: TextMap): GeneratorRead | undefined {
  const description =
    meaningful(texts.get('exif:ImageDescription')) ??
    meaningful(xmpDescription(texts.get('xmp') ?? texts.get('XML:com.adobe.xmp'))) ??
    meaningful(texts.get('Description')) ??
    meaningful(texts.get('Comment'));
  if (description === undefined) return undefined;
  return { source: 'unknown', settings: {}, description, problems: [] };
}
