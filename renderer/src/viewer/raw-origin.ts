/**
 * Where in a file a text the readers kept came from, in words (electron/library/readers/containers.ts names them:
 * a PNG keyword, `exif:<Tag>`, `xmp`, `iptc:<Field>`, `sidecar`, `stealth`).
 */
export function rawOrigin(key: string): string {
  if (key.startsWith('exif:')) return `EXIF ${key.slice('exif:'.length)}`;
  if (key.startsWith('iptc:')) return `IPTC ${key.slice('iptc:'.length)}`;
  if (key === 'xmp' || key === 'XML:com.adobe.xmp') return 'XMP packet';
  if (key === 'sidecar') return 'Text file beside the image';
  if (key === 'stealth') return 'Hidden in the pixels (stealth)';
  return `PNG text “${key}”`;
}

/** Every text as one copyable block, each under its origin. */
export function allRawTexts(raw: ReadonlyArray<{ key: string; text: string }>): string {
  return raw.map((r) => `[${rawOrigin(r.key)}]\n${r.text}`).join('\n\n');
}
