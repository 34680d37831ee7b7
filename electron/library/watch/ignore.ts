import { basename, relative, sep } from 'node:path';

/** Names a tool writes while a file is still incomplete (browsers, downloaders, editors' backups). */
const TEMP_NAME = /(\.tmp|\.part|\.crdownload|~)$/i;

/** A name that is hidden (starts with '.') or a temporary file's. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || TEMP_NAME.test(name);
}

/**
 * Whether a path under the watched root is skipped: any folder on the way (below the root) or the file itself is
 * hidden, or its name is a temp name. The root's own ancestors never count: a root inside ~/.local still works.
 */
export function isIgnoredPath(absRoot: string, absPath: string): boolean {
  const rel = relative(absRoot, absPath);
  if (rel === '' || rel.startsWith('..')) return true;
  if (TEMP_NAME.test(basename(absPath))) return true;
  return rel.split(sep).some((segment) => segment.startsWith('.'));
}
