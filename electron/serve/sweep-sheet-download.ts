/** GET /api/sweep-sheet/<file>.png: a sweep's sheet kept under the data dir by `sweeps.sheet`, as a download. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { ErrorBody } from '../../shared/errors.js';
import { keptSheet } from '../library/export/sweep-sheet-file.js';

export const SWEEP_SHEET_PREFIX = '/api/sweep-sheet/';

function sendError(res: ServerResponse, status: number, error: ErrorBody, extra: Record<string, string> = {}): void {
  const text = JSON.stringify({ ok: false, error });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(text);
}

export async function handleSweepSheetDownload(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  dataDir: string,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendError(
      res,
      405,
      { code: 'invalid_request', message: 'Use GET to download a sweep sheet.', retryable: false },
      { allow: 'GET, HEAD' },
    );
  // Only names the sheet writer makes are answered: no path, no dots, nothing outside its folder.
  const sheet = keptSheet(dataDir, pathname.slice(SWEEP_SHEET_PREFIX.length));
  const info = sheet === null ? null : await stat(sheet.path).catch(() => null);
  if (sheet === null || info === null || !info.isFile())
    return sendError(res, 404, {
      code: 'not_found',
      message: 'No such sweep sheet (sheets are kept for a day: make it again from the sweep).',
      retryable: false,
    });
  res.writeHead(200, {
    'content-type': 'image/png',
    'content-length': info.size,
    'content-disposition': `attachment; filename="${sheet.downloadName}"`,
    'cache-control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  await pipeline(createReadStream(sheet.path), res).catch(() => res.destroy());
}
