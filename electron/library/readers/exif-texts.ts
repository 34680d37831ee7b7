import exifr from 'exifr';
import { utf8OrLatin1 } from './bytes.js';
import type { RawText } from './types.js';
import { decodeUserComment, trimTrailingNuls } from './user-comment.js';

/** Only the tags generators write into; no GPS, thumbnails or value translation (cheap, and nothing is invented). */
const OPTIONS = {
  tiff: true,
  ifd0: {},
  exif: true,
  userComment: true,
  makerNote: true,
  ifd1: false,
  gps: false,
  interop: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  translateKeys: true,
  translateValues: false,
  reviveValues: false,
  sanitize: true,
  mergeOutput: true,
} as const;

const STRING_TAGS = ['Make', 'Model', 'Software', 'ImageDescription'] as const;

/** Without NULs at either end: NovelAI's WebP and JPEG downloads open their ImageDescription with four of them. */
function withoutNuls(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === 0) start += 1;
  return trimTrailingNuls(start === 0 ? text : text.slice(start));
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return withoutNuls(value);
  if (value instanceof Uint8Array) return withoutNuls(utf8OrLatin1(value));
  return undefined;
}

export interface ExifTexts {
  raw: RawText[];
  problems: string[];
}

/** The EXIF tags generators use, as `exif:<Tag>` texts; UserComment decoded from its declared character code. */
export async function readExifTexts(tiff: Uint8Array): Promise<ExifTexts> {
  let tags: Record<string, unknown> | undefined;
  try {
    tags = (await exifr.parse(tiff, OPTIONS)) as Record<string, unknown> | undefined;
  } catch (error) {
    return {
      raw: [],
      problems: [`The EXIF block could not be read (${error instanceof Error ? error.message : String(error)}).`],
    };
  }
  const raw: RawText[] = [];
  if (tags === undefined || tags === null) return { raw, problems: [] };
  for (const tag of STRING_TAGS) {
    const text = textOf(tags[tag]);
    if (text !== undefined && text !== '') raw.push({ key: `exif:${tag}`, text });
  }
  // SaveImage Plus (ComfyUI) writes UserComment (0x9286) into IFD0 as ASCII, where exifr names it by number.
  const comment = tags.userComment ?? tags[0x9286];
  if (comment instanceof Uint8Array || typeof comment === 'string') {
    const text = comment instanceof Uint8Array ? decodeUserComment(comment) : trimTrailingNuls(comment);
    if (text !== '') raw.push({ key: 'exif:UserComment', text });
  }
  // Fooocus (Pillow's Image.Exif) writes its scheme as MakerNote (0x927C) into IFD0 too.
  const makerNote = textOf(tags.makerNote ?? tags[0x927c]);
  if (makerNote !== undefined && makerNote !== '') raw.push({ key: 'exif:MakerNote', text: makerNote });
  return { raw, problems: [] };
}
