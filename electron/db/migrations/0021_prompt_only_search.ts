import { foldForSearch } from '../fold.js';
import type { Migration } from './types.js';

/** The text with the negative prompt's line after the prompt taken out, or null when it is not where it was written. */
export function withoutNegative(text: string, prompt: string, negative: string): string | null {
  const head = `${prompt}\n${negative}`;
  if (text.startsWith(head)) return `${prompt}${text.slice(head.length)}`;
  // A corrected prompt the file's text did not start with was added as a line of its own (annotated-search.ts).
  const at = text.indexOf(`\n${head}`);
  return at < 0 ? null : `${text.slice(0, at + 1 + prompt.length)}${text.slice(at + 1 + head.length)}`;
}

/**
 * Version 21: free words search the prompt only. jobs.search_text (and its grams) held the folded negative prompt on
 * the line after the prompt, so "watermark" found every image that avoided watermarks and "-hands" dropped those that
 * avoided hands; `negative:` reads jobs.negative_key, which stays. Rows with a negative prompt lose that line, and a
 * corrected job's saved file text (annotated_search) loses it too, so reverting a correction stays exact. The grams
 * follow through their trigger; logical_bytes shrinks by what was removed.
 */
export const migration0021: Migration = {
  version: 21,
  name: 'prompt_only_search',
  up(db) {
    const jobs = db
      .prepare(
        "SELECT rowid, prompt, negative_prompt, search_text FROM jobs WHERE negative_prompt IS NOT NULL AND negative_prompt <> ''",
      )
      .raw()
      .all() as Array<[number, string, string, string]>;
    const setText = db.prepare(
      'UPDATE jobs SET search_text = ?, logical_bytes = max(0, logical_bytes - ?) WHERE rowid = ?',
    );
    for (const [rowid, prompt, negative, text] of jobs) {
      const next = withoutNegative(text, foldForSearch(prompt), foldForSearch(negative));
      if (next !== null) setText.run(next, Buffer.byteLength(text) - Buffer.byteLength(next), rowid);
    }
    // A corrected job's saved file text loses the file's negative line; the text it was saved beside is rewritten
    // the same way as jobs.search_text was, so it still matches it when it did (a stale one stays stale).
    const saved = db
      .prepare(
        `SELECT a.job_id, a.base, a.written, j.prompt, j.negative_prompt, j.request_json FROM annotated_search AS a
           JOIN jobs AS j ON j.id = a.job_id`,
      )
      .raw()
      .all() as Array<[string, string, string, string, string | null, string]>;
    const setBase = db.prepare('UPDATE annotated_search SET base = ?, written = ? WHERE job_id = ?');
    const strip = (text: string, prompt: unknown, negative: unknown) =>
      typeof prompt === 'string' && typeof negative === 'string' && negative !== ''
        ? (withoutNegative(text, foldForSearch(prompt), foldForSearch(negative)) ?? text)
        : text;
    for (const [jobId, base, written, prompt, negative, requestJson] of saved) {
      const request = JSON.parse(requestJson) as { prompt?: unknown; negativePrompt?: unknown };
      setBase.run(strip(base, request.prompt, request.negativePrompt), strip(written, prompt, negative), jobId);
    }
  },
};
