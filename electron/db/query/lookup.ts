import { samplerKey } from '../../../shared/query/samplers.js';
import type { StoreContext } from '../context.js';
import type { QueryLookup } from './compile.js';

/** Facet value lists are small (tens to thousands of models): more than this many matches is a typo, not a filter. */
const MAX_FACET_KEYS = 200;
/** Past this many distinct image sizes (a library of odd crops), ratio: walks the history instead of naming them. */
const MAX_SIZES = 256;

/** The library's values a query names, read from the small tables (facet_values, tags, boards). */
export function createQueryLookup(ctx: StoreContext): QueryLookup {
  const facet = ctx.sql.prepare<{ key: string }>(
    'query.facetKeys',
    'SELECT key FROM facet_values WHERE kind = ? AND jobs > 0 AND instr(key, ?) > 0 ORDER BY jobs DESC LIMIT ?',
  );
  const samplers = ctx.sql.prepare<{ key: string }>(
    'query.samplerKeys',
    "SELECT key FROM facet_values WHERE kind = 'sampler' AND jobs > 0 ORDER BY jobs DESC",
  );
  /** Every stored spelling of the samplers named: "euler a" finds euler_ancestral and k_euler_ancestral too. */
  function samplerKeys(folded: string): string[] {
    const wanted = samplerKey(folded);
    return samplers
      .all()
      .map((r) => r.key)
      .filter((key) => key.includes(folded) || (wanted.length > 0 && samplerKey(key).includes(wanted)))
      .slice(0, MAX_FACET_KEYS);
  }
  const facetJobs = ctx.sql.prepare<{ n: number | null }>(
    'query.facetJobs',
    'SELECT sum(jobs) AS n FROM facet_values WHERE kind = ? AND key IN (SELECT value FROM json_each(?))',
  );
  const tag = ctx.sql.prepare<{ id: number; images: number }>('query.tag', 'SELECT id, images FROM tags WHERE key = ?');
  const board = ctx.sql.prepare<{ id: string; name: string; images: number; query: string | null }>(
    'query.board',
    'SELECT id, name, images, query FROM boards WHERE key = ?',
  );
  // One seek per distinct size along jobs_size_created (a loose index scan): libraries hold tens of sizes. Two
  // statements, each a seek: a row-value (width, height) > (?, ?) seeks on width alone and scans that width's jobs.
  const nextHeight = ctx.sql.prepare<{ height: number }>(
    'query.nextHeight',
    'SELECT height FROM jobs INDEXED BY jobs_size_created WHERE width = ? AND height > ? ORDER BY height LIMIT 1',
  );
  const nextWidth = ctx.sql.prepare<{ width: number; height: number }>(
    'query.nextWidth',
    'SELECT width, height FROM jobs INDEXED BY jobs_size_created WHERE width > ? ORDER BY width, height LIMIT 1',
  );
  function sizes(): Array<[number, number]> | null {
    const out: Array<[number, number]> = [];
    let at = nextWidth.get(-1);
    while (at !== undefined) {
      if (out.length >= MAX_SIZES) return null;
      out.push([at.width, at.height]);
      const height = nextHeight.get(at.width, at.height)?.height;
      at = height !== undefined ? { width: at.width, height } : nextWidth.get(at.width);
    }
    return out;
  }
  return {
    sizes,
    facetKeys: (kind, folded) =>
      kind === 'sampler' ? samplerKeys(folded) : facet.all(kind, folded, MAX_FACET_KEYS).map((r) => r.key),
    facetJobs: (kind, keys) => facetJobs.get(kind, JSON.stringify(keys))?.n ?? 0,
    tag: (folded) => tag.get(folded) ?? null,
    board: (folded) => board.get(folded) ?? null,
    now: ctx.now,
  };
}
