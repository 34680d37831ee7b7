/**
 * The export's manifest: one row per image, with the settings it was made with (as corrected: the job's search columns
 * hold the effective settings, electron/db/annotated-search.ts), its note, and whether its original was found.
 */

export interface ManifestRow {
  file: string;
  status: 'exported' | 'missing';
  imageId: string;
  jobId: string;
  createdAt: string;
  source: string;
  provider: string;
  model: string;
  prompt: string;
  negativePrompt: string;
  seed: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  /** The person's note on the image (electron/db/notes.ts); empty when none. */
  note: string;
}

export const MANIFEST_COLUMNS: ReadonlyArray<keyof ManifestRow> = [
  'file',
  'status',
  'imageId',
  'jobId',
  'createdAt',
  'source',
  'provider',
  'model',
  'prompt',
  'negativePrompt',
  'seed',
  'width',
  'height',
  'bytes',
  'sha256',
  'note',
];

// A cell a spreadsheet would run as a formula is kept as text.
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (row: ManifestRow): string => MANIFEST_COLUMNS.map((c) => csvCell(row[c])).join(',');
const BATCH = 200;

/** The manifest as text chunks, a row read at a time: it is written as a stream, never built whole. */
export function* manifestChunks(
  kind: 'json' | 'csv',
  rows: Iterable<ManifestRow>,
  exportedAt: number,
): Generator<string> {
  const line = kind === 'csv' ? csvLine : (row: ManifestRow) => `    ${JSON.stringify(row)}`;
  yield kind === 'csv'
    ? `${MANIFEST_COLUMNS.join(',')}\r\n`
    : `{\n  "exportedAt": ${JSON.stringify(new Date(exportedAt).toISOString())},\n  "images": [\n`;
  let batch: string[] = [];
  let first = true;
  const flush = (): string => {
    const sep = kind === 'csv' ? '\r\n' : ',\n';
    const text = (first || kind === 'csv' ? '' : sep) + batch.join(sep) + (kind === 'csv' ? '\r\n' : '');
    first = false;
    batch = [];
    return text;
  };
  for (const row of rows) {
    batch.push(line(row));
    if (batch.length >= BATCH) yield flush();
  }
  if (batch.length > 0) yield flush();
  if (kind === 'json') yield '\n  ]\n}\n';
}
