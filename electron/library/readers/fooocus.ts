import { readFooocusA1111 } from './fooocus-a1111.js';
import { readFooocusJson } from './fooocus-json.js';
import { parseJson, isObject } from './json.js';
import type { GeneratorRead, GeneratorReader, TextMap } from './types.js';

interface FooocusTexts {
  data?: string | undefined;
  scheme?: string | undefined;
}

/** PNG: `parameters` + `fooocus_scheme`, or an older `Comment`. JPEG/WebP: UserComment + MakerNote, Software Fooocus. */
function fooocusTexts(texts: TextMap): FooocusTexts | undefined {
  const scheme = texts.get('fooocus_scheme')?.trim().toLowerCase();
  if (scheme !== undefined) return { data: texts.get('parameters'), scheme };
  // Older Fooocus builds wrote a PNG `Comment` of JSON (`prompt`, `base_model`, `cfg`, `width`): no scheme key.
  const comment = texts.get('Comment');
  if (comment !== undefined && comment.includes('"base_model"') && !texts.has('Software'))
    return { data: comment, scheme: 'fooocus' };
  if (!texts.get('exif:Software')?.trimStart().startsWith('Fooocus')) return undefined;
  return { data: texts.get('exif:UserComment'), scheme: texts.get('exif:MakerNote')?.trim().toLowerCase() };
}

/**
 * Fooocus, both schemes. A1111-scheme files are read here too, as source 'fooocus': the scheme key (or
 * Software) says which tool made them, and the source filter should say so.
 */
export const readFooocus: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  const found = fooocusTexts(texts);
  if (found === undefined) return undefined;
  const read: GeneratorRead = { source: 'fooocus', settings: {}, problems: [] };
  if (found.data === undefined || found.data.trim() === '') {
    read.problems.push('no parameters text');
    return read;
  }
  const json = found.scheme === 'a1111' ? undefined : parseJson(found.data);
  if (json?.ok === true && isObject(json.value)) return { ...read, ...readFooocusJson(json.value) };
  if (json !== undefined && (found.scheme === 'fooocus' || found.data.trimStart().startsWith('{'))) {
    read.problems.push('parameters: not a JSON object');
    return read;
  }
  return { ...read, ...readFooocusA1111(found.data) };
};
