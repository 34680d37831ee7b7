import { compact } from './fields.js';
import { seedString, type GeneratorRead, type TextMap } from './types.js';
import { xmpOf, xmpProperty } from './xmp.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The text before a closing `Job ID: <uuid>`, or undefined. Read from the end, where the pattern
 * `\s*Job ID:\s*<uuid>\s*$` it replaces retries every start in a long run of spaces, quadratic.
 */
function withoutJobId(description: string): string | undefined {
  const end = description.trimEnd().length;
  if (end < 36 || !UUID.test(description.slice(end - 36, end))) return undefined;
  const label = description.slice(0, end - 36).trimEnd();
  if (!/^Job ID:$/i.test(label.slice(-7))) return undefined;
  return label.slice(0, -7).trimEnd();
}

/** `--flag value` pairs after the prompt; a value may have spaces (`--no red, blue`), a bare flag (`--tile`) none. */
function flags(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(/(?:^|\s)--(?=[a-z])/i)) {
    const match = /^([a-z]+)\s*([\s\S]*)$/i.exec(part.trim());
    if (match) out.set(match[1]!.toLowerCase(), match[2]!.trim());
  }
  return out;
}

function modelOf(f: Map<string, string>): string | undefined {
  if (f.has('niji')) return `niji ${f.get('niji')}`.trim();
  if (f.has('v')) return `Midjourney v${f.get('v')}`;
  if (f.has('version')) return `Midjourney v${f.get('version')}`;
  return undefined;
}

/** Every place a download keeps its description: PNG `Description`, EXIF, XMP `dc:description`, IPTC caption. */
function descriptions(texts: TextMap): string[] {
  const xmp = xmpOf(texts);
  const found = [
    texts.get('Description'),
    texts.get('exif:ImageDescription'),
    xmp === undefined ? undefined : xmpProperty(xmp, 'dc:description'),
    texts.get('iptc:Caption'),
  ];
  return found.filter((text): text is string => text !== undefined);
}

/** The description a Midjourney or Niji download carries: `<prompt> --ar 2:1 --v 6 Job ID: <uuid>`. */
export function readMidjourney(texts: TextMap): GeneratorRead | undefined {
  let body: string | undefined;
  for (const description of descriptions(texts)) {
    body = withoutJobId(description);
    if (body !== undefined) break;
  }
  if (body === undefined) return undefined;
  const flagAt = body.search(/(^|\s)--[a-z]/i);
  const prompt = (flagAt < 0 ? body : body.slice(0, flagAt)).trim();
  const f = flags(flagAt < 0 ? '' : body.slice(flagAt));
  const problems: string[] = [];
  const seedText = f.get('seed');
  const seed = seedText === undefined ? undefined : seedString(seedText);
  if (seedText !== undefined && seed === undefined)
    problems.push(`Seed ${JSON.stringify(seedText)} is not a whole number.`);
  return {
    source: 'midjourney',
    settings: compact({
      prompt: prompt || undefined,
      negativePrompt: f.get('no') || undefined,
      seed,
      model: modelOf(f),
    }),
    problems,
  };
}
