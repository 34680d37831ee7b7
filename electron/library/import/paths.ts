import { isAbsolute, relative } from 'node:path';

/** True when `child` is `parent` itself or below it (both absolute and already resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  // Up a level is ".." alone or followed by a separator: a folder named "..0" inside is still inside.
  return rel === '' || (!/^\.\.(?:[\\/]|$)/.test(rel) && !isAbsolute(rel));
}
