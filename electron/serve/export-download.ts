/** GET /api/export/<id>.zip: an export streamed as a ZIP from its originals, never held whole in memory. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Engine } from '../engine/types.js';

export const EXPORT_PREFIX = '/api/export/';
const EXPORT_PATH = /^\/api\/export\/([0-9a-f-]{36})\.zip$/;

function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(text);
}

export async function handleExportDownload(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  engine: Pick<Engine, 'exportDownload'>,
): Promise<void> {
  if (req.method !== 'GET') return plain(res, 405, 'Use GET to download an export.', { allow: 'GET' });
  const id = EXPORT_PATH.exec(pathname)?.[1];
  const download = id === undefined ? null : engine.exportDownload(id);
  if (download === null)
    return plain(res, 404, 'No such export (it may have been cancelled, or the server restarted).');
  // The archive's length is known only at its end: chunked, so the browser shows bytes as they come.
  res.writeHead(200, {
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="${download.fileName}"`,
    'cache-control': 'no-store',
  });
  // A reader that leaves (or a cancel) ends both sides; the export itself records how it ended.
  await pipeline(download.stream, res).catch(() => res.destroy());
}
