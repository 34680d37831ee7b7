/** Readable, unique file names for exported images: `<date>_<first words of the prompt>_<seed>.<ext>`. */

const EXT_BY_MIME: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

const MAX_WORDS = 6;
const MAX_STEM = 60;

/** Letters and digits of any script survive; everything else separates words (no path or reserved characters). */
export function slug(text: string): string {
  const words = text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  let out = '';
  for (const word of words.slice(0, MAX_WORDS)) {
    const next = out === '' ? word : `${out}-${word}`;
    if (next.length > MAX_STEM) break;
    out = next;
  }
  return out === '' ? 'image' : out;
}

export function extensionOf(mime: string, path: string): string {
  const known = EXT_BY_MIME[mime];
  if (known !== undefined) return known;
  const dot = path.lastIndexOf('.');
  const ext = dot >= 0 ? path.slice(dot + 1).toLowerCase() : '';
  return /^[a-z0-9]{1,5}$/.test(ext) ? ext : 'bin';
}

export interface NameParts {
  createdAt: number;
  prompt: string;
  seed: string | number | undefined;
  imageId: string;
  ext: string;
}

export function baseName(parts: NameParts): string {
  const date = new Date(parts.createdAt).toISOString().slice(0, 10);
  const seed =
    parts.seed === undefined
      ? parts.imageId.slice(-8)
      : String(parts.seed)
          .replace(/[^0-9A-Za-z-]/g, '')
          .slice(0, 24) || parts.imageId.slice(-8);
  return `${date}_${slug(parts.prompt)}_${seed}.${parts.ext}`;
}

/** Hands out names unique without regard to case (Windows and macOS folders are case-insensitive): `x.png`, `x (2).png`. */
export function createNamer(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = numbered(name, n);
    taken.add(candidate.toLowerCase());
    return candidate;
  };
}

/** `name (n).ext`: the name the folder writer and the namer fall back to. */
export function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}
