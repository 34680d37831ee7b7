import { isWordChar } from '../../media/regex-classes.js';
import type { GeneratorRead, TextMap } from './types.js';

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

/** The first `open` at or after `from` that is a whole tag name (no word character follows it), or -1. */
function tagAt(xmp: string, open: string, from: number): number {
  let at = xmp.indexOf(open, from);
  while (at >= 0 && isWordChar(xmp.charCodeAt(at + open.length))) at = xmp.indexOf(open, at + 1);
  return at;
}

/**
 * XMP keeps the description as `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">…</rdf:li>`: the text of the
 * first `rdf:li` after the first `dc:description`. Found with indexOf, as the lazy pattern
 * `<dc:description\b[^>]*>[\s\S]*?<rdf:li\b[^>]*>([\s\S]*?)<\/rdf:li>` matched it, without its rescans
 * from every `<rdf:li` of a list that never closes.
 */
function xmpElement(xmp: string): string | undefined {
  const description = tagAt(xmp, '<dc:description', 0);
  const descriptionEnd = description < 0 ? -1 : xmp.indexOf('>', description + 15);
  const item = descriptionEnd < 0 ? -1 : tagAt(xmp, '<rdf:li', descriptionEnd + 1);
  const itemEnd = item < 0 ? -1 : xmp.indexOf('>', item + 7);
  const close = itemEnd < 0 ? -1 : xmp.indexOf('</rdf:li>', itemEnd + 1);
  return close < 0 ? undefined : xmp.slice(itemEnd + 1, close);
}

function xmpDescription(xmp: string | undefined): string | undefined {
  if (xmp === undefined) return undefined;
  const text = xmpElement(xmp) ?? XMP_ATTRIBUTE.exec(xmp)?.[1];
  return text === undefined ? undefined : xmlText(text);
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
