import { isWordChar } from '../../media/regex-classes.js';

/** The five XML entities and numeric character references (decimal and hex), as XMP writers escape text. */
export function xmlText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#[xX]([0-9a-fA-F]{1,6});/g, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16) % 0x110000))
    .replace(/&#(\d{1,7});/g, (_, d: string) => String.fromCodePoint(Number(d) % 0x110000))
    .replace(/&amp;/g, '&');
}

/** The first `open` at or after `from` that is a whole tag name (no word character follows it), or -1. */
function tagAt(xmp: string, open: string, from: number): number {
  let at = xmp.indexOf(open, from);
  while (at >= 0 && isWordChar(xmp.charCodeAt(at + open.length))) at = xmp.indexOf(open, at + 1);
  return at;
}

/**
 * The text of the first `rdf:li` inside the first `<name …>` (`<dc:description><rdf:Alt><rdf:li xml:lang=…>…`),
 * found with indexOf: the lazy pattern `<name\b[^>]*>[\s\S]*?<rdf:li\b[^>]*>([\s\S]*?)<\/rdf:li>` rescans from every
 * `<rdf:li` of a list that never closes.
 */
function altItem(xmp: string, name: string): string | undefined {
  const open = tagAt(xmp, `<${name}`, 0);
  const openEnd = open < 0 ? -1 : xmp.indexOf('>', open + name.length + 1);
  const item = openEnd < 0 ? -1 : tagAt(xmp, '<rdf:li', openEnd + 1);
  // The item must sit inside this element, not in a later one (a simple `<xmp:CreatorTool>` holds none).
  const elementEnd = item < 0 ? -1 : xmp.indexOf(`</${name}>`, openEnd + 1);
  if (elementEnd >= 0 && elementEnd < item) return undefined;
  const itemEnd = item < 0 ? -1 : xmp.indexOf('>', item + 7);
  const close = itemEnd < 0 ? -1 : xmp.indexOf('</rdf:li>', itemEnd + 1);
  return close < 0 ? undefined : xmp.slice(itemEnd + 1, close);
}

/** `<name>text</name>`, the element's text when it holds no markup. */
function simpleElement(xmp: string, name: string): string | undefined {
  const open = tagAt(xmp, `<${name}`, 0);
  const openEnd = open < 0 ? -1 : xmp.indexOf('>', open + name.length + 1);
  if (openEnd < 0 || xmp[openEnd - 1] === '/') return undefined;
  const close = xmp.indexOf(`</${name}>`, openEnd + 1);
  const text = close < 0 ? undefined : xmp.slice(openEnd + 1, close);
  return text === undefined || text.includes('<') ? undefined : text;
}

/** `name="text"` written as an attribute of rdf:Description: the first not glued to a word before it. */
function attribute(xmp: string, name: string): string | undefined {
  let at = xmp.indexOf(`${name}="`);
  while (at > 0 && isWordChar(xmp.charCodeAt(at - 1))) at = xmp.indexOf(`${name}="`, at + 1);
  if (at < 0) return undefined;
  const start = at + name.length + 2;
  const end = xmp.indexOf('"', start);
  return end < 0 ? undefined : xmp.slice(start, end);
}

/** One XMP property by its qualified name (`dc:description`, `xmp:CreatorTool`), however it was written. */
export function xmpProperty(xmp: string, name: string): string | undefined {
  const text = altItem(xmp, name) ?? simpleElement(xmp, name) ?? attribute(xmp, name);
  return text === undefined ? undefined : xmlText(text);
}

/** The XMP packet of a file: JPEG APP1 and WebP `XMP ` (`xmp`) or a PNG iTXt `XML:com.adobe.xmp`. */
export function xmpOf(texts: ReadonlyMap<string, string>): string | undefined {
  return texts.get('xmp') ?? texts.get('XML:com.adobe.xmp');
}
