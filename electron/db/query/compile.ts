import { IMAGE_SOURCES } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { SOURCE_LABELS } from '../../../shared/source-labels.js';
import type { Clause, NumberMatch, Query, SeedMatch, Term } from '../../../shared/query/index.js';
import { foldForSearch } from '../fold.js';
import { dateRange } from './dates.js';
import { seedDriverSql } from './seed-driver.js';

/** What a compiled query needs from the library: the values it holds, looked up by folded text. */
export interface QueryLookup {
  /** Keys of facet_values of that kind whose key contains `folded`. */
  facetKeys(kind: 'model' | 'sampler' | 'scheduler' | 'lora', folded: string): string[];
  /** facet_values.jobs summed over those keys (how many jobs the driver index holds for them). */
  facetJobs(kind: 'model' | 'sampler' | 'scheduler' | 'lora', keys: string[]): number;
  tag(folded: string): { id: number; images: number } | null;
  board(folded: string): { id: string; name: string; images: number; query: string | null } | null;
  now(): number;
  /** Every distinct width x height the history holds, or null when there are too many to list. */
  sizes?(): Array<[number, number]> | null;
}

/** One way to read matches in history order: an index and the equality that selects them. */
export interface Driver {
  index: string;
  /** Rows the index holds for the clause (exact or a close estimate). */
  rows: number;
  /** true: the index yields rows already in (created_at, id) order for one value; false: they need a sort. */
  ordered: boolean;
}

export interface CompiledQuery {
  /** Folded free words and phrases a job's text must contain (instr on search_text). */
  terms: string[];
  /** Words whose grams the index may AND (phrases contribute their words). */
  indexTerms: string[];
  /**
   * Words of model:, sampler:, scheduler: and lora: values: every job they match holds them in its settings line
   * (jobs.search_text), so a search with free words may AND their grams too. Never a reason to search by text alone.
   */
  settingTerms: string[];
  /** Job-level SQL over `j`, ANDed. */
  where: string[];
  params: unknown[];
  /** Image-level SQL over `i` (and `j`): a job matches when one of its images passes all; only those images show. */
  imageWhere: string[];
  imageParams: unknown[];
  /** Index choices for the job-level clauses (for the planner); empty when none helps. */
  drivers: Array<Driver & { sql: string; params: unknown[] }>;
  /** Clauses that can start the read: the jobs holding a tag's, a board's or a seed's images, or a LoRA. */
  imageDrivers: ImageDriver[];
  /** The query asks for trashed images itself (is:trashed): the view's trash filter stands aside. */
  wantsTrash: boolean;
  /** The query asks for rejected images (is:rejected): the default view's reject filter stands aside. */
  wantsRejected?: boolean;
}

export interface ImageDriver {
  name: string;
  /** A job-level condition, redundant with the clause, that reads only the jobs holding matching images. */
  sql: string;
  params: unknown[];
  /** Known image count, or null to count with probeSql. */
  rows: number | null;
  probeSql: string;
  /** The clause's rows in history order (migration 0022): reading them newest first fills a page and stops. */
  through?: Through;
}

/** A table holding a clause's images with their job's history key, and the index that reads one value's newest first. */
export interface Through {
  table: 'image_tags' | 'board_images';
  index: 'image_tags_tag_created' | 'board_images_board_created';
  column: 'tag_id' | 'board_id';
  value: number | string;
}

type Sql = {
  sql: string;
  params: unknown[];
  image: boolean;
  driver?: Driver;
  imageDriver?: ImageDriver;
  expanded?: boolean;
  /** Some value matched does not contain the typed text (a sampler's other spelling): its words narrow no index read. */
  spelledOtherwise?: boolean;
};

const FALSE: Sql = { sql: '0', params: [], image: false };
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function numberSql(column: string, match: NumberMatch): { sql: string; params: unknown[] } {
  if ('from' in match) return { sql: `${column} BETWEEN ? AND ?`, params: [match.from, match.to] };
  return { sql: `${column} ${match.op} ?`, params: [match.value] };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Seeds live in images.seed (safe integers) or images.seed_digits (beyond 2^53, as digits): both are checked. */
function seedSql(match: SeedMatch): { sql: string; params: unknown[] } {
  if ('exact' in match) {
    return BigInt(match.exact) <= SAFE
      ? { sql: 'i.seed = ?', params: [Number(match.exact)] }
      : { sql: 'i.seed_digits = ?', params: [match.exact] };
  }
  if ('prefix' in match) {
    return { sql: 'coalesce(CAST(i.seed AS TEXT), i.seed_digits) GLOB ?', params: [`${match.prefix}*`] };
  }
  const from = BigInt(match.from);
  const to = BigInt(match.to);
  const parts: string[] = [];
  const params: unknown[] = [];
  if (from <= SAFE) {
    parts.push('i.seed BETWEEN ? AND ?');
    params.push(Number(from), Number(to < SAFE ? to : SAFE));
  }
  if (to > SAFE) {
    // Digit strings without leading zeros compare as numbers by length first, then text.
    const low = from > SAFE ? match.from : (SAFE + 1n).toString();
    parts.push(
      '(i.seed_digits IS NOT NULL AND (length(i.seed_digits) > ? OR (length(i.seed_digits) = ? AND i.seed_digits >= ?)) AND (length(i.seed_digits) < ? OR (length(i.seed_digits) = ? AND i.seed_digits <= ?)))',
    );
    params.push(low.length, low.length, low, match.to.length, match.to.length, match.to);
  }
  return { sql: parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`, params };
}

/** Keys whose value is in the row's search text: a facet key (withSettings), or a note (annotated-search.ts). */
const SETTING_KEYS = new Set(['model', 'sampler', 'scheduler', 'lora', 'note']);

const FACET_COLUMNS = { model: 'model_key', sampler: 'sampler_key', scheduler: 'scheduler_key' } as const;

/** How deep smart boards may nest (a board whose query names another board, which names another...). */
export const MAX_BOARD_DEPTH = 3;
/** Conditions a query may hold filled in: a typed search (1,000 characters) holds at most 500, boards may not cost more. */
export const MAX_EXPANDED_TERMS = 500;
/** Bound values a query may hold filled in: SQLite allows 32,766 per statement, and a driver repeats some. */
export const MAX_EXPANDED_PARAMS = 10_000;

interface BoardRef {
  id: string;
  name: string;
}

/** What one compile shares with the smart boards it fills in: the boards being filled in now, and the size so far. */
interface Expansion {
  /** Outermost first: the smart boards whose queries are being compiled, each inside the one before. */
  chain: BoardRef[];
  terms: number;
  params: number;
  /** How many times each smart board was filled in (the message names the most repeated). */
  filled: Map<string, BoardRef & { times: number }>;
}

export interface CompileOptions {
  /** Internal: the expansion of the query this one is a smart board inside. */
  expansion?: Expansion;
}

const quoted = (boards: readonly BoardRef[]) => boards.map((b) => `"${b.name}"`).join(' → ');

function tooLarge(expansion: Expansion, what: string): AppError {
  const most = [...expansion.filled.values()].sort((a, b) => b.times - a.times)[0];
  if (most === undefined)
    return new AppError('invalid_request', `This search is too large: more than ${what}. Shorten it.`);
  const times = `${most.times.toLocaleString('en-US')} time${most.times === 1 ? '' : 's'}`;
  return new AppError(
    'invalid_request',
    `This search is too large once its smart boards are filled in: more than ${what} ("${most.name}" alone is filled in ${times}). Name fewer smart boards, or ones with shorter searches.`,
  );
}

/**
 * Turns a parsed query into SQL over the indexed columns. Every value is bound, never spliced; a value the library
 * does not hold compiles to false, so an unknown model matches nothing instead of everything. A smart board that
 * names itself (directly or through others), nests deeper than MAX_BOARD_DEPTH or fills in past the size limits is
 * refused with invalid_request.
 */
export function compileQuery(
  query: Query,
  lookup: QueryLookup,
  parse: (text: string) => Query | null,
  options: CompileOptions = {},
): CompiledQuery {
  const out: CompiledQuery = {
    terms: [],
    indexTerms: [],
    settingTerms: [],
    where: [],
    params: [],
    imageWhere: [],
    imageParams: [],
    drivers: [],
    imageDrivers: [],
    wantsTrash: false,
  };
  const expansion: Expansion = options.expansion ?? { chain: [], terms: 0, params: 0, filled: new Map() };

  function text(t: Extract<Term, { kind: 'text' }>): Sql {
    const folded = foldForSearch(t.text).trim();
    switch (t.key) {
      case 'model':
      case 'sampler':
      case 'scheduler': {
        const keys = lookup.facetKeys(t.key, folded);
        if (keys.length === 0) return FALSE;
        const column = `j.${FACET_COLUMNS[t.key]}`;
        const index = `jobs_${t.key}_created`;
        return {
          sql: keys.length === 1 ? `${column} = ?` : `${column} IN (${placeholders(keys.length)})`,
          params: keys,
          image: false,
          driver: { index, rows: lookup.facetJobs(t.key, keys), ordered: keys.length === 1 },
          // Another spelling of the sampler (uni_pc for UniPC) need not hold the typed words in its settings line.
          ...(keys.some((k) => !k.includes(folded)) && { spelledOtherwise: true }),
        };
      }
      case 'lora': {
        const keys = lookup.facetKeys('lora', folded);
        if (keys.length === 0) return FALSE;
        // Checked per job (job_loras_job) while walking the history; the IN list drives a read of few jobs. LIMIT 1
        // keeps it a correlated probe: as a join, SQLite 3.53 builds a Bloom filter over all of job_loras first.
        return {
          sql: `EXISTS (SELECT 1 FROM job_loras AS jl WHERE jl.job_id = j.id AND jl.key IN (${placeholders(keys.length)}) LIMIT 1)`,
          params: keys,
          image: false,
          imageDriver: {
            name: 'lora',
            sql: `j.id IN (SELECT job_id FROM job_loras WHERE key IN (${placeholders(keys.length)}))`,
            params: keys,
            rows: lookup.facetJobs('lora', keys),
            probeSql: '',
          },
        };
      }
      case 'source': {
        const sources = IMAGE_SOURCES.filter(
          (s) => s.includes(folded) || foldForSearch(SOURCE_LABELS[s]).includes(folded),
        );
        if (sources.length === 0) return FALSE;
        return {
          sql: sources.length === 1 ? 'j.source = ?' : `j.source IN (${placeholders(sources.length)})`,
          params: sources,
          image: false,
          driver: { index: 'jobs_source_created', rows: Number.MAX_SAFE_INTEGER, ordered: sources.length === 1 },
        };
      }
      case 'provider':
        return {
          sql: 'j.provider = ?',
          params: [folded],
          image: false,
          driver: { index: 'jobs_provider_created', rows: Number.MAX_SAFE_INTEGER, ordered: true },
        };
      case 'status':
        return {
          sql: 'j.status = ?',
          params: [folded],
          image: false,
          driver: { index: 'jobs_status_created', rows: Number.MAX_SAFE_INTEGER, ordered: true },
        };
      case 'negative':
        return { sql: "instr(coalesce(j.negative_key, ''), ?) > 0", params: [folded], image: false };
      case 'tag': {
        const tag = lookup.tag(folded);
        if (tag === null) return FALSE;
        return {
          sql: 'EXISTS (SELECT 1 FROM image_tags AS t WHERE t.image_id = i.id AND t.tag_id = ?)',
          params: [tag.id],
          image: true,
          imageDriver: {
            name: 'tag',
            sql: 'j.id IN (SELECT ti.job_id FROM image_tags AS t JOIN images AS ti ON ti.id = t.image_id WHERE t.tag_id = ?)',
            params: [tag.id],
            rows: tag.images,
            probeSql: '',
            through: { table: 'image_tags', index: 'image_tags_tag_created', column: 'tag_id', value: tag.id },
          },
        };
      }
      case 'board': {
        const board = lookup.board(folded);
        if (board === null) return FALSE;
        if (board.query !== null) return smartBoard(board, board.query);
        return {
          sql: 'EXISTS (SELECT 1 FROM board_images AS b WHERE b.image_id = i.id AND b.board_id = ?)',
          params: [board.id],
          image: true,
          imageDriver: {
            name: 'board',
            sql: 'j.id IN (SELECT bi.job_id FROM board_images AS b JOIN images AS bi ON bi.id = b.image_id WHERE b.board_id = ?)',
            params: [board.id],
            rows: board.images,
            probeSql: '',
            through: {
              table: 'board_images',
              index: 'board_images_board_created',
              column: 'board_id',
              value: board.id,
            },
          },
        };
      }
      case 'note':
        // Image-level (a job's other images may have no note); read from the few noted images when they are few.
        return {
          sql: 'EXISTS (SELECT 1 FROM image_notes AS n WHERE n.image_id = i.id AND instr(n.folded, ?) > 0)',
          params: [folded],
          image: true,
          imageDriver: {
            name: 'note',
            sql: 'j.id IN (SELECT job_id FROM image_notes WHERE instr(folded, ?) > 0)',
            params: [folded],
            rows: null,
            probeSql: 'SELECT 1 FROM image_notes WHERE instr(folded, ?) > 0',
          },
        };
      case 'path':
        return {
          sql: 'EXISTS (SELECT 1 FROM image_locations AS l WHERE l.image_id = i.id AND instr(lower(l.path), ?) > 0)',
          params: [folded],
          image: true,
        };
      case 'import':
        // The images an import added (not the duplicates it found): its files marked imported, by their locations.
        return {
          sql: `i.id IN (SELECT l.image_id FROM import_files AS f JOIN image_locations AS l ON l.path = f.path
                 WHERE f.import_id = ? AND f.status = 'imported')`,
          params: [folded],
          image: true,
          imageDriver: {
            name: 'import',
            sql: `j.id IN (SELECT li.job_id FROM import_files AS f JOIN image_locations AS l ON l.path = f.path
                   JOIN images AS li ON li.id = l.image_id WHERE f.import_id = ? AND f.status = 'imported')`,
            params: [folded],
            rows: null,
            probeSql: "SELECT 1 FROM import_files WHERE import_id = ? AND status = 'imported'",
          },
        };
    }
  }

  /** A smart board inside a query: its own query as one image-level condition (free words by instr, no index). */
  function smartBoard(board: BoardRef, saved: string): Sql {
    const { chain } = expansion;
    const at = chain.findIndex((b) => b.id === board.id);
    if (at >= 0) {
      const through = chain.slice(at + 1);
      throw new AppError(
        'invalid_request',
        `The smart board "${board.name}" names itself${through.length > 0 ? ` through ${quoted(through)}` : ''}: a smart board cannot include itself.`,
      );
    }
    if (chain.length >= MAX_BOARD_DEPTH) {
      throw new AppError(
        'invalid_request',
        `Smart boards can name smart boards only ${MAX_BOARD_DEPTH} deep: ${quoted([...chain, board])} goes deeper.`,
      );
    }
    const inner = parse(saved);
    if (inner === null) return FALSE;
    const seen = expansion.filled.get(board.id);
    expansion.filled.set(board.id, { ...board, times: (seen?.times ?? 0) + 1 });
    chain.push(board);
    let compiled: CompiledQuery;
    try {
      compiled = compileQuery(inner, lookup, parse, { expansion });
    } finally {
      chain.pop();
    }
    const parts = [
      ...compiled.terms.map(() => 'instr(j.search_text, ?) > 0'),
      ...compiled.where,
      ...compiled.imageWhere,
    ];
    const params = [...compiled.terms, ...compiled.params, ...compiled.imageParams];
    return { sql: parts.length === 0 ? '1' : `(${parts.join(' AND ')})`, params, image: true, expanded: true };
  }

  /** Every condition counts against the whole expansion's size, so a board named many times is caught as it fills in. */
  function charge(terms: number, params: number): void {
    expansion.terms += terms;
    expansion.params += params;
    if (expansion.terms > MAX_EXPANDED_TERMS)
      throw tooLarge(expansion, `${MAX_EXPANDED_TERMS.toLocaleString('en-US')} conditions`);
    if (expansion.params > MAX_EXPANDED_PARAMS)
      throw tooLarge(expansion, `${MAX_EXPANDED_PARAMS.toLocaleString('en-US')} values`);
  }

  function counted(t: Term): Sql {
    charge(1, 0);
    const sql = term(t);
    // A smart board's values were charged condition by condition as it filled in.
    if (sql.expanded !== true) charge(0, sql.params.length);
    return sql;
  }

  function term(t: Term): Sql {
    switch (t.kind) {
      case 'word':
      case 'phrase':
        return { sql: 'instr(j.search_text, ?) > 0', params: [foldForSearch(t.text)], image: false };
      case 'text':
        return text(t);
      case 'number': {
        if (t.key === 'rating') return { ...numberSql('i.rating', t.match), image: true };
        const column = { steps: 'j.steps', cfg: 'j.cfg', w: 'j.width', h: 'j.height' }[t.key];
        const index = {
          steps: 'jobs_steps_created',
          cfg: 'jobs_cfg_created',
          w: 'jobs_size_created',
          h: 'jobs_height_created',
        }[t.key];
        const equal = !('from' in t.match) && t.match.op === '=';
        return {
          ...numberSql(column, t.match),
          image: false,
          ...(index !== undefined && {
            driver: { index, rows: Number.MAX_SAFE_INTEGER, ordered: equal && t.key !== 'w' },
          }),
        };
      }
      case 'seed': {
        const seed = seedSql(t.match);
        if (!('exact' in t.match)) {
          const driver = seedDriverSql(t.match);
          return {
            ...seed,
            image: true,
            imageDriver: {
              name: 'seed',
              sql: `j.id IN (SELECT i.job_id FROM images AS i WHERE ${driver.sql})`,
              params: driver.params,
              rows: null,
              probeSql: `SELECT 1 FROM images AS i WHERE ${driver.sql}`,
            },
          };
        }
        const column = seed.sql.startsWith('i.seed_digits') ? 'seed_digits' : 'seed';
        return {
          ...seed,
          image: true,
          imageDriver: {
            name: 'seed',
            sql: `j.id IN (SELECT job_id FROM images WHERE ${column} = ?)`,
            params: seed.params,
            rows: null,
            probeSql: `SELECT 1 FROM images WHERE ${column} = ?`,
          },
        };
      }
      case 'size':
        return {
          sql: 'j.width = ? AND j.height = ?',
          params: [t.w, t.h],
          image: false,
          driver: { index: 'jobs_size_created', rows: Number.MAX_SAFE_INTEGER, ordered: true },
        };
      case 'ratio': {
        const m = t.match;
        if ('shape' in m) {
          const sql = { portrait: 'j.height > j.width', landscape: 'j.width > j.height', square: 'j.width = j.height' }[
            m.shape
          ];
          return { sql, params: [], image: false };
        }
        // Within 1%: 1344x768 is 16:9 as people mean it.
        const sql = {
          sql: 'abs(j.width * ? - j.height * ?) <= 0.01 * j.height * ?',
          params: [m.h, m.w, m.w],
          image: false,
        };
        // The sizes the library holds with that ratio (the same arithmetic), so the read starts from jobs_size_created.
        const held = lookup.sizes?.() ?? null;
        if (held === null) return sql;
        const matching = held.filter(([w, h]) => Math.abs(w * m.h - h * m.w) <= 0.01 * h * m.w);
        if (matching.length === 0) return FALSE;
        const any = `(${matching.map(() => '(j.width = ? AND j.height = ?)').join(' OR ')})`;
        const params = matching.flat();
        return {
          ...sql,
          imageDriver: {
            name: 'ratio',
            sql: any,
            params,
            rows: null,
            probeSql: `SELECT 1 FROM jobs AS j WHERE ${any}`,
          },
        };
      }
      case 'date': {
        const { from, to } = dateRange(t.match, lookup.now());
        return {
          sql: 'j.created_at >= ? AND j.created_at < ?',
          params: [from, to],
          image: false,
          driver: { index: 'jobs_created', rows: Number.MAX_SAFE_INTEGER, ordered: true },
        };
      }
      case 'from':
        return {
          sql: 'j.parent_image_id = ?',
          params: [t.imageId],
          image: false,
          driver: { index: 'jobs_parent_created', rows: Number.MAX_SAFE_INTEGER, ordered: true },
        };
      case 'sweep': {
        // A whole id is one value of sweep_jobs_cell; a prefix is a range of it (ids are lowercase hex and dashes).
        const whole = t.id.length === 36;
        const match = whole ? 'sweep_id = ?' : 'sweep_id >= ? AND sweep_id < ?';
        const params = whole ? [t.id] : [t.id, `${t.id}~`];
        const sql = `j.id IN (SELECT job_id FROM sweep_jobs WHERE ${match})`;
        return {
          sql,
          params,
          image: false,
          imageDriver: { name: 'sweep', sql, params, rows: null, probeSql: `SELECT 1 FROM sweep_jobs WHERE ${match}` },
        };
      }
      case 'is':
        switch (t.value) {
          case 'favorite':
            return { sql: 'i.favorite = 1', params: [], image: true };
          case 'trashed':
            return { sql: '(i.trashed_at IS NOT NULL OR j.trashed_at IS NOT NULL)', params: [], image: true };
          case 'rejected':
            return { sql: 'i.rejected = 1', params: [], image: true };
          case 'failed':
            return { sql: "j.status = 'failed'", params: [], image: false };
          case 'derived':
            return {
              sql: 'j.parent_image_id IS NOT NULL',
              params: [],
              image: false,
              driver: { index: 'jobs_parent_created', rows: Number.MAX_SAFE_INTEGER, ordered: false },
            };
          case 'missing':
            return {
              sql: 'EXISTS (SELECT 1 FROM image_locations AS l WHERE l.image_id = i.id) AND NOT EXISTS (SELECT 1 FROM image_locations AS l WHERE l.image_id = i.id AND l.missing_at IS NULL)',
              params: [],
              image: true,
            };
        }
    }
  }

  function clause(c: Clause): void {
    const single = c.anyOf.length === 1 ? c.anyOf[0]! : null;
    // A plain free word or phrase goes to the gram index; everything else is a condition.
    if (single !== null && !c.negated && (single.kind === 'word' || single.kind === 'phrase')) {
      const folded = foldForSearch(single.text);
      if (folded.trim().length === 0) return;
      charge(1, 1);
      out.terms.push(folded);
      out.indexTerms.push(...folded.split(/\s+/u).filter((w) => w.length > 0));
      return;
    }
    if (single !== null && !c.negated && single.kind === 'is' && single.value === 'trashed') out.wantsTrash = true;
    if (single !== null && !c.negated && single.kind === 'is' && single.value === 'rejected') {
      out.wantsRejected = true;
      // Redundant but indexed (migration 0020's roll-up): only the jobs holding a reject are read.
      const sql = '(j.rejected_images > 0)';
      out.where.push(sql);
      out.drivers.push({
        index: 'jobs_rejected_created',
        rows: Number.MAX_SAFE_INTEGER,
        ordered: true,
        sql,
        params: [],
      });
    }
    if (single !== null && !c.negated && single.kind === 'is' && single.value === 'favorite') {
      // Redundant but indexed: a job with a favourite image is a favourite job (migration 0010's roll-up), so the
      // favourites' own index starts the read instead of a walk of the whole history checking each job's images.
      const sql = '(j.favorite = 1)';
      out.where.push(sql);
      out.drivers.push({
        index: 'jobs_favorite_created',
        rows: Number.MAX_SAFE_INTEGER,
        ordered: true,
        sql,
        params: [],
      });
    }
    const parts = c.anyOf.map(counted);
    if (
      single !== null &&
      !c.negated &&
      single.kind === 'text' &&
      SETTING_KEYS.has(single.key) &&
      parts[0] !== FALSE &&
      parts[0]!.spelledOtherwise !== true
    ) {
      out.settingTerms.push(
        ...foldForSearch(single.text)
          .trim()
          .split(/\s+/u)
          .filter((w) => w.length > 0),
      );
    }
    const image = parts.some((p) => p.image);
    const joined = parts.length === 1 ? `(${parts[0]!.sql})` : `(${parts.map((p) => `(${p.sql})`).join(' OR ')})`;
    // NOT over a NULL column would be NULL (no match): coalesce makes a negated condition true where a value is absent.
    const sql = c.negated ? `NOT coalesce(${joined}, 0)` : joined;
    const params = parts.flatMap((p) => p.params);
    if (image) {
      out.imageWhere.push(sql);
      out.imageParams.push(...params);
      const driver = single !== null && !c.negated ? parts[0]!.imageDriver : undefined;
      if (driver !== undefined) out.imageDrivers.push(driver);
    } else {
      out.where.push(sql);
      out.params.push(...params);
      const driver = single !== null && !c.negated ? parts[0]!.driver : undefined;
      if (driver !== undefined) out.drivers.push({ ...driver, sql, params });
      const jobDriver = single !== null && !c.negated ? parts[0]!.imageDriver : undefined;
      if (jobDriver !== undefined) out.imageDrivers.push(jobDriver);
    }
  }

  for (const c of query.clauses) clause(c);
  return out;
}
