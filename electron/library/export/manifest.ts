/** The export's manifest: one row per image, with the settings it was made with and whether its original was found. */

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
}

export const MANIFEST_COLUMNS: ReadonlyArray<keyof ManifestRow> = [
  'file', 'status', 'imageId', 'jobId', 'createdAt', 'source', 'provider', 'model', 'prompt', 'negativePrompt', 'seed', 'width', 'height', 'bytes', 'sha256',
];

// A cell a spreadsheet would run as a formula is kept as text.
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function manifestCsv(rows: readonly ManifestRow[]): string {
  const lines = [MANIFEST_COLUMNS.join(',')];
  for (const row of rows) lines.push(MANIFEST_COLUMNS.map((c) => csvCell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function manifestJson(rows: readonly ManifestRow[], exportedAt: number): string {
  return `${JSON.stringify({ exportedAt: new Date(exportedAt).toISOString(), images: rows }, null, 2)}\n`;
}

export function manifestText(kind: 'json' | 'csv', rows: readonly ManifestRow[], exportedAt: number): string {
  return kind === 'json' ? manifestJson(rows, exportedAt) : manifestCsv(rows);
}
