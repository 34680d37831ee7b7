import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { isInside } from './media-request.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function mimeFor(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export interface StaticFile {
  path: string;
  mime: string;
  size: number;
}

/**
 * Maps a URL pathname to a file under `root` (the built renderer), or null. `/` is index.html. Refuses encoded
 * separators, backslashes, null bytes, dot segments and symlinks leading out of the root.
 */
export async function resolveStaticFile(root: string, pathname: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || /[\\\0]/.test(decoded) || /%2f|%5c/i.test(pathname)) return null;
  const segments = decoded.slice(1).split('/');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const relativePath = decoded === '/' ? 'index.html' : segments.join(sep);
  try {
    const realRoot = await realpath(root);
    const real = await realpath(resolve(realRoot, relativePath));
    if (!isInside(realRoot, real)) return null;
    const info = await stat(real);
    if (!info.isFile()) return null;
    return { path: real, mime: mimeFor(real), size: info.size };
  } catch {
    return null;
  }
}
