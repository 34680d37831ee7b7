import type { SeedMatch } from '../../../shared/query/index.js';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Index ranges over images.seed / images.seed_digits holding every seed a prefix or range names (a superset: the
 * clause itself still checks each image), so `seed:1234*` and `seed:100-200` start from images_seed_job instead of a
 * walk of the whole history. A prefix is one range per length: 1234, 12340–12349, 123400–123499, …
 */
export function seedDriverSql(match: Exclude<SeedMatch, { exact: string }>): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if ('prefix' in match) {
    const prefix = match.prefix;
    // Seeds are written without leading zeros: only 0 itself starts with 0.
    if (prefix.startsWith('0')) return { sql: 'i.seed = 0', params: [] };
    for (let low = BigInt(prefix), width = 1n; low <= SAFE; low *= 10n, width *= 10n) {
      const high = low + width - 1n;
      parts.push('i.seed BETWEEN ? AND ?');
      params.push(Number(low), Number(high < SAFE ? high : SAFE));
    }
    parts.push('i.seed_digits GLOB ?');
    params.push(`${prefix}*`);
    return { sql: `(${parts.join(' OR ')})`, params };
  }
  const from = BigInt(match.from);
  const to = BigInt(match.to);
  if (from <= SAFE) {
    parts.push('i.seed BETWEEN ? AND ?');
    params.push(Number(from), Number(to < SAFE ? to : SAFE));
  }
  // Beyond 2^53 the digits compare as text within one length; a length range holds them all (a superset).
  if (to > SAFE) {
    parts.push('i.seed_digits IS NOT NULL');
  }
  return { sql: parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`, params };
}
