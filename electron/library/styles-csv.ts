/**
 * AUTOMATIC1111's styles.csv (header `name,prompt,negative_prompt`, written by Python's csv module with a BOM) read the
 * way A1111 reads it: columns by their header names, spaces after commas skipped, rows whose name starts with # are
 * comments, the old `name,text` header still works. Each style becomes what a preset stores.
 */
import { AppError } from '../../shared/errors.js';
import { PROMPT_PLACEHOLDER, takesPrompt, templateProblem } from '../../shared/prompt-template.js';
import { presetKey, type ImportedStyle } from '../db/presets.js';
import { parseCsv } from './csv.js';

export interface StylesRead {
  styles: ImportedStyle[];
  skipped: Array<{ line: number; reason: string }>;
}

/** The same limits the contract puts on a preset's name and texts. */
const MAX_NAME = 100;
const MAX_TEXT = 32_000;
/** Styles one file may add (large community packs hold a few thousand); past it, one skipped entry says where it stopped. */
export const MAX_STYLES = 10_000;

/** A style's prompt as a template: A1111 puts the typed prompt at {prompt}, or before the style when it has none. */
export function templateOfStyle(stylePrompt: string): string | undefined {
  if (stylePrompt.trim().length === 0) return undefined;
  return takesPrompt(stylePrompt) ? stylePrompt : `${PROMPT_PLACEHOLDER}, ${stylePrompt}`;
}

// trim() also drops the BOM Python's utf-8-sig puts before the first column's name.
const columnOf = (header: string[], ...names: string[]): number =>
  header.findIndex((h) => names.includes(h.trim().toLowerCase()));

export function readStylesCsv(text: string): StylesRead {
  const { records, unclosedAt } = parseCsv(text, { skipInitialSpace: true });
  const isBlank = (fields: string[]): boolean => fields.every((f) => f.trim().length === 0);
  const rows = records.filter((r) => !isBlank(r.fields));
  const header = rows.shift();
  const name = header === undefined ? -1 : columnOf(header.fields, 'name');
  if (header === undefined || name < 0) {
    throw new AppError(
      'invalid_request',
      'This is not a styles file: its first line should name the columns, as in name,prompt,negative_prompt.',
    );
  }
  const prompt = columnOf(header.fields, 'prompt', 'text');
  const negative = columnOf(header.fields, 'negative_prompt');
  const width = header.fields.length;

  const styles: ImportedStyle[] = [];
  const skipped: StylesRead['skipped'] = [];
  const seen = new Map<string, number>();
  for (const { line, fields } of rows) {
    if (styles.length === MAX_STYLES) {
      skipped.push({
        line,
        reason: `A styles file adds at most ${MAX_STYLES.toLocaleString('en')} styles: this line and the ones after it were not read. Split the file to import the rest.`,
      });
      break;
    }
    const skip = (reason: string): void => {
      skipped.push({ line, reason });
    };
    const styleName = (fields[name] ?? '').trim();
    if (styleName.startsWith('#')) continue;
    // Windows editors save CRLF inside quoted prompts too; a prompt's line breaks are plain newlines.
    const stylePrompt = (prompt < 0 ? '' : (fields[prompt] ?? '')).replaceAll('\r\n', '\n');
    const styleNegative = (negative < 0 ? '' : (fields[negative] ?? '')).replaceAll('\r\n', '\n');
    const template = templateOfStyle(stylePrompt);
    const extra = fields.slice(width).filter((f) => f.trim().length > 0).length;
    const folded = presetKey(styleName);
    if (styleName.length === 0) skip('The style has no name.');
    else if (styleName.length > MAX_NAME) skip(`The style's name is longer than ${MAX_NAME} characters.`);
    else if (extra > 0)
      skip(
        `The line has ${width + extra} fields where the first line names ${width}: a prompt with commas needs "quotes" around it.`,
      );
    else if (template === undefined && styleNegative.trim().length === 0)
      skip(`"${styleName}" has neither a prompt nor a negative prompt.`);
    else if (template !== undefined && template.length > MAX_TEXT)
      skip(`The prompt of "${styleName}" is longer than ${MAX_TEXT.toLocaleString('en')} characters.`);
    else if (styleNegative.length > MAX_TEXT)
      skip(`The negative prompt of "${styleName}" is longer than ${MAX_TEXT.toLocaleString('en')} characters.`);
    else if (template !== undefined && templateProblem(template) !== undefined) skip(templateProblem(template)!);
    else if (seen.has(folded)) skip(`A style called "${styleName}" is already on line ${seen.get(folded)}.`);
    else {
      seen.set(folded, line);
      styles.push({
        line,
        name: styleName,
        ...(template !== undefined && { template }),
        ...(styleNegative.trim().length > 0 && { negativePrompt: styleNegative }),
      });
    }
  }
  if (unclosedAt !== undefined)
    skipped.push({
      line: unclosedAt,
      reason: 'A quoted field opens on this line and is never closed, so the rest of the file could not be read.',
    });
  return { styles, skipped };
}
