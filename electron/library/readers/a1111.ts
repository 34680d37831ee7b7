import { parseParameters } from '../../media/png/a1111-parameters.js';
import { paramEntries } from '../../media/png/a1111-params-line.js';
import { isSpace } from '../../media/regex-classes.js';
import { lorasInPrompt, withLoraHashes } from './a1111-loras.js';
import { a1111Passes, hasHires } from './a1111-passes.js';
import { compact, numberField } from './fields.js';
import { parseJson } from './json.js';
import { seedString, type GeneratorRead, type TextMap } from './types.js';

/**
 * JSON in `parameters` belongs to Fooocus or SwarmUI; their readers run first, A1111 never claims it. A prompt may
 * start with a bracket too (prompt editing, `[dog:cat:0.5]`): only text that parses, or an unparsed `{` without a
 * params line, is JSON.
 */
export function looksLikeJson(text: string): boolean {
  if (!/^\s*[[{]/.test(text)) return false;
  if (parseJson(text).ok) return true;
  return /^\s*\{/.test(text) && !hasParamsLine(text);
}

const PARAM_KEYS = ['Steps:', 'Sampler:', 'Seed:', 'CFG scale:', 'Size:', 'Model:'];

/**
 * A UserComment or sidecar is A1111 only with a params line; a bare `parameters` chunk may be a prompt alone. A line
 * whose first non-space is a known key and a colon with something after it, line by line: the pattern
 * `(^|\n)\s*(Steps|…):\s*\S` it replaces rescans a run of blank lines from each of them, quadratic.
 */
function hasParamsLine(text: string): boolean {
  if (text.includes('\nNegative prompt:')) return true;
  const lastSolid = text.trimEnd().length - 1;
  for (let from = 0; ;) {
    const newline = text.indexOf('\n', from);
    const end = newline < 0 ? text.length : newline;
    let at = from;
    while (at < end && isSpace(text.charCodeAt(at))) at += 1;
    if (at < end && PARAM_KEYS.some((key) => text.startsWith(key, at) && at + key.length - 1 < lastSolid)) return true;
    if (newline < 0) return false;
    from = newline + 1;
  }
}

function sizeField(value: string | undefined, problems: string[]): { width?: number; height?: number } {
  if (value === undefined) return {};
  const match = /^\s*(\d+)\s*x\s*(\d+)\s*$/.exec(value);
  if (match) return { width: Number(match[1]), height: Number(match[2]) };
  problems.push(`Size ${JSON.stringify(value)} is not WIDTHxHEIGHT.`);
  return {};
}

/**
 * Lines some extensions wrote after the params line (Dynamic Prompts' `Template: …` in early 2023) are cut off, so
 * the params line is the last one again, as A1111's reader expects.
 */
function withoutLinesAfterParams(text: string): string {
  const trimmed = text.trimEnd();
  const lastLine = trimmed.slice(trimmed.lastIndexOf('\n') + 1);
  if (paramEntries(lastLine).length >= 3) return text;
  const steps = trimmed.lastIndexOf('\nSteps: ');
  const end = steps < 0 ? -1 : trimmed.indexOf('\n', steps + 1);
  if (end < 0 || paramEntries(trimmed.slice(steps + 1, end)).length < 3) return text;
  return trimmed.slice(0, end);
}

/** The A1111 infotext (`prompt\nNegative prompt: …\nSteps: …, Seed: …`) in the fields a job uses. */
export function a1111FromText(text: string): GeneratorRead {
  const parsed = parseParameters(withoutLinesAfterParams(text));
  const p = parsed.params;
  const problems: string[] = [];
  // The seed is read from the text, not parsed.seed: a number would lose digits past 2^53.
  const seed = p.Seed === undefined ? undefined : seedString(p.Seed);
  if (p.Seed !== undefined && seed === undefined)
    problems.push(`Seed ${JSON.stringify(p.Seed)} is not a whole number.`);
  const loras = withLoraHashes(lorasInPrompt(parsed.prompt), p['Lora hashes']);
  const params = new Map(Object.entries(p));
  const steps = numberField(p.Steps, 'Steps', problems);
  const guidance = numberField(p['CFG scale'], 'CFG scale', problems);
  const size = sizeField(p.Size, problems);
  // With a hires fix, the denoising strength is the hires pass's: the first pass was text to image.
  const denoise = hasHires(params) ? undefined : numberField(p['Denoising strength'], 'Denoising strength', problems);
  const passes = a1111Passes(params, problems, size.width, size.height);
  const read: GeneratorRead = {
    source: 'a1111',
    settings: compact({
      prompt: parsed.prompt || undefined,
      negativePrompt: parsed.negativePrompt || undefined,
      seed,
      steps,
      guidance,
      sampler: p.Sampler || undefined,
      scheduler: p['Schedule type'] || undefined,
      model: p.Model || undefined,
      modelHash: p['Model hash'] || undefined,
      ...size,
      loras: loras.length > 0 ? loras : undefined,
      denoise,
    }),
    problems,
  };
  if (passes.length > 0) read.passes = passes;
  return read;
}

/** PNG `parameters`, else the EXIF UserComment A1111 writes into JPEG and WebP. */
export function readA1111(texts: TextMap): GeneratorRead | undefined {
  const parameters = texts.get('parameters');
  if (parameters !== undefined && parameters.trim() !== '' && !looksLikeJson(parameters))
    return a1111FromText(parameters);
  const comment = texts.get('exif:UserComment');
  if (comment !== undefined && !looksLikeJson(comment) && hasParamsLine(comment)) return a1111FromText(comment);
  return undefined;
}

/** The `<name>.txt` A1111 saves beside an image when "save text information" is on. */
export function readA1111Sidecar(text: string): GeneratorRead | undefined {
  return text.trim() !== '' && !looksLikeJson(text) && hasParamsLine(text) ? a1111FromText(text) : undefined;
}
