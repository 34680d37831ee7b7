import { isAbsolute, relative } from 'node:path';

/** True when `child` is `parent` itself or below it (both absolute and already resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
