/**
 * The query language against a model: every key finds exactly the images a naive filter over the same rows finds.
 * The naive side evaluates the parsed query in plain JS over what each job was made with; the store runs it as SQL.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../shared/contract.js';
import { formatQuery, parseQuery, type Clause, type Query, type Term } from '../../../shared/query/index.js';
import { foldForSearch } from '../../../electron/db/fold.js';
import { toImportedImage } from '../../../electron/library/import/to-imported.js';
import { SOURCE_LABELS } from '../../../shared/source-labels.js';
import type { JobStore } from '../../../electron/db/types.js';
import { manualClock, open } from './helpers.js';

const WORDS = ['fox', 'owl', 'červená', 'ČERVENÁ', 'ναός', 'Ёлка', '東京', 'lighthouse'];
const MODELS = ['sdxl_base_1.0', 'DreamShaper_8', 'ponyDiffusionV6', 'Juggernaut XL'];
const SAMPLERS = ['Euler a', 'DPM++ 2M', 'euler', 'UniPC'];
const SCHEDULERS = ['karras', 'exponential', 'normal'];
const LORAS = ['add_detail', 'film_grain', 'Détail_Ultra'];
const SOURCES = ['a1111', 'comfyui', 'invokeai'] as const;
const TAGS = ['keeper', 'Print', 'ćover'];
const SIZES: Array<[number, number]> = [
  [512, 512],
  [512, 768],
  [768, 512],
  [1344, 768],
  [1024, 1024],
];
const DAY = 86_400_000;
const NOW = new Date(2026, 10, 20, 12).getTime();

interface ModelImage {
  jobId: string;
  imageId: string;
  source: (typeof SOURCES)[number];
  prompt: string;
  negative: string;
  model: string;
  sampler: string;
  scheduler: string;
  loras: string[];
  steps: number;
  cfg: number;
  seed: bigint;
  w: number;
  h: number;
  createdAt: number;
  path: string;
  rating: number;
  favorite: boolean;
  tags: string[];
  trashed: boolean;
}

const row = fc.record({
  source: fc.constantFrom(...SOURCES),
  prompt: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  negative: fc.constantFrom('', 'blurry', 'low quality, watermark'),
  model: fc.constantFrom(...MODELS),
  sampler: fc.constantFrom(...SAMPLERS),
  scheduler: fc.constantFrom(...SCHEDULERS),
  loras: fc.subarray(LORAS),
  steps: fc.integer({ min: 10, max: 60 }),
  cfg: fc.constantFrom(3, 5.5, 7, 12),
  seed: fc.oneof(fc.bigInt({ min: 0n, max: 5000n }), fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n - 1n })),
  size: fc.constantFrom(...SIZES),
  ageDays: fc.integer({ min: 0, max: 60 }),
  rating: fc.integer({ min: 0, max: 5 }),
  favorite: fc.boolean(),
  tags: fc.subarray(TAGS),
  trashed: fc.boolean(),
});
type Row = typeof row extends fc.Arbitrary<infer R> ? R : never;

function seedStore(rows: Row[]): { store: JobStore; images: ModelImage[] } {
  const clock = manualClock(NOW);
  const store = open({ now: clock.now });
  const images: ModelImage[] = rows.map((r, n) => {
    const path = `/Pictures/${r.source}/${n}-${r.model}.png`;
    const image = toImportedImage({
      path,
      sha256: (n + 1).toString(16).padStart(64, '0'),
      size: 100,
      // An hour off the day: no date boundary falls within the few ms between the test's now and the store's.
      mtimeMs: NOW - r.ageDays * DAY - 3_600_000 - n * 1000,
      format: 'png',
      width: r.size[0],
      height: r.size[1],
      mode: 'link',
      storedPath: path,
      read: {
        format: 'png',
        source: r.source,
        settings: {
          prompt: r.prompt,
          ...(r.negative !== '' && { negativePrompt: r.negative }),
          model: r.model,
          sampler: r.sampler,
          scheduler: r.scheduler,
          loras: r.loras.map((name) => ({ name })),
          steps: r.steps,
          guidance: r.cfg,
          seed: r.seed.toString(),
          width: r.size[0],
          height: r.size[1],
        },
        raw: [],
        problems: [],
      },
    });
    store.imports.commit(null, [{ kind: 'imported', seq: n, path, folderId: null, bytes: 100, mtimeMs: 1, image }]);
    return {
      jobId: image.jobId,
      imageId: image.image.id,
      source: r.source,
      prompt: r.prompt,
      negative: r.negative,
      model: r.model,
      sampler: r.sampler,
      scheduler: r.scheduler,
      loras: r.loras,
      steps: r.steps,
      cfg: r.cfg,
      seed: r.seed,
      w: r.size[0],
      h: r.size[1],
      createdAt: image.createdAt,
      path,
      rating: r.rating,
      favorite: r.favorite,
      tags: r.tags,
      trashed: r.trashed,
    };
  });
  const c = store.curation;
  for (const m of images) {
    if (m.rating > 0) c.setRating({ ids: [m.imageId] }, m.rating);
    if (m.favorite) c.setFavorite({ ids: [m.imageId] }, true);
    if (m.tags.length > 0) c.tag({ ids: [m.imageId] }, m.tags, []);
    if (m.trashed) c.trash({ ids: [m.imageId] });
  }
  return { store, images };
}

const has = (haystack: string, needle: string) => foldForSearch(haystack).includes(foldForSearch(needle).trim());

function localDay(offset: number): { from: number; to: number } {
  const d = new Date(NOW);
  const start = new Date(d.getFullYear(), d.getMonth(), d.getDate() + offset).getTime();
  return { from: start, to: new Date(d.getFullYear(), d.getMonth(), d.getDate() + offset + 1).getTime() };
}

function naiveTerm(t: Term, m: ModelImage): boolean {
  switch (t.kind) {
    case 'word':
    case 'phrase':
      return has(m.prompt, t.text);
    case 'text':
      switch (t.key) {
        case 'model':
          return has(m.model, t.text);
        case 'sampler':
          return has(m.sampler, t.text);
        case 'scheduler':
          return has(m.scheduler, t.text);
        case 'lora':
          return m.loras.some((l) => has(l, t.text));
        case 'source':
          return has(m.source, t.text) || has(SOURCE_LABELS[m.source], t.text);
        case 'provider':
          return foldForSearch(t.text).trim() === m.source;
        case 'status':
          return foldForSearch(t.text).trim() === 'succeeded';
        case 'tag':
          return m.tags.some((tag) => foldForSearch(tag) === foldForSearch(t.text).trim());
        case 'negative':
          return has(m.negative, t.text);
        case 'path':
          return m.path.toLowerCase().includes(foldForSearch(t.text).trim());
        case 'board':
          return false;
      }
      return false;
    case 'number': {
      const v = { steps: m.steps, cfg: m.cfg, w: m.w, h: m.h, rating: m.rating }[t.key];
      const x = t.match;
      if ('from' in x) return v >= x.from && v <= x.to;
      return { '=': v === x.value, '>': v > x.value, '>=': v >= x.value, '<': v < x.value, '<=': v <= x.value }[x.op];
    }
    case 'seed': {
      const x = t.match;
      if ('exact' in x) return m.seed === BigInt(x.exact);
      if ('prefix' in x) return m.seed.toString().startsWith(x.prefix);
      return m.seed >= BigInt(x.from) && m.seed <= BigInt(x.to);
    }
    case 'size':
      return m.w === t.w && m.h === t.h;
    case 'ratio': {
      const x = t.match;
      if ('shape' in x) return x.shape === 'portrait' ? m.h > m.w : x.shape === 'landscape' ? m.w > m.h : m.w === m.h;
      return Math.abs(m.w * x.h - m.h * x.w) <= 0.01 * m.h * x.w;
    }
    case 'date': {
      const x = t.match;
      if ('relative' in x || 'lastDays' in x) {
        const range =
          'relative' in x ? localDay(x.relative === 'today' ? 0 : -1) : { from: NOW - x.lastDays * DAY, to: Infinity };
        return m.createdAt >= range.from && m.createdAt < range.to;
      }
      const [fy, fm, fd] = x.from.split('-').map(Number) as [number, number, number?];
      const [ty, tm, td] = x.to.split('-').map(Number) as [number, number, number?];
      const from = new Date(fy, fm - 1, fd ?? 1).getTime();
      const to = td === undefined ? new Date(ty, tm, 1).getTime() : new Date(ty, tm - 1, td + 1).getTime();
      return m.createdAt >= from && m.createdAt < to;
    }
    case 'is':
      return t.value === 'favorite' ? m.favorite : t.value === 'trashed' ? m.trashed : false;
    // Imported images are made from nothing in the library: lineage has its own test (curation/lineage.test.ts).
    case 'from':
      return false;
    // Nor are they a sweep's cells: sweep: has its own test (db/sweeps.test.ts).
    case 'sweep':
      return false;
  }
}

const naiveClause = (c: Clause, m: ModelImage) => c.anyOf.some((t) => naiveTerm(t, m)) !== c.negated;

type SortName = 'newest' | 'oldest' | 'rating';

function expected(q: Query, images: ModelImage[], sort: SortName = 'newest'): string[] {
  const wantsTrash = q.clauses.some(
    (c) =>
      !c.negated &&
      c.anyOf.length === 1 &&
      c.anyOf[0]!.kind === 'is' &&
      (c.anyOf[0] as { value: string }).value === 'trashed',
  );
  return images
    .filter((m) => (wantsTrash || !m.trashed) && q.clauses.every((c) => naiveClause(c, m)))
    .sort((a, b) => {
      const newest = b.createdAt - a.createdAt || (a.jobId < b.jobId ? 1 : -1);
      if (sort === 'oldest') return -newest;
      // A job's rating for sorting is its best image's outside the trash.
      if (sort === 'rating') return (b.trashed ? 0 : b.rating) - (a.trashed ? 0 : a.rating) || newest;
      return newest;
    })
    .map((m) => m.jobId);
}

const text = (values: readonly string[]) =>
  fc.constantFrom(...values).chain((v) => fc.constantFrom(v, v.slice(0, 3), v.toUpperCase()));
const numberMatch = (lo: number, hi: number) =>
  fc.oneof(
    fc.record({ op: fc.constantFrom('=', '>', '>=', '<', '<=' as const), value: fc.integer({ min: lo, max: hi }) }),
    fc
      .tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: lo, max: hi }))
      .map(([a, b]) => ({ from: Math.min(a, b), to: Math.max(a, b) })),
  );
const term: fc.Arbitrary<Term> = fc.oneof(
  text(WORDS).map((t) => ({ kind: 'word', text: t }) as Term),
  fc.constantFrom('červená fox', 'low quality').map((t) => ({ kind: 'phrase', text: t }) as Term),
  fc
    .tuple(fc.constantFrom('model', 'sampler', 'scheduler', 'lora' as const), fc.nat())
    .chain(([key]) =>
      text({ model: MODELS, sampler: SAMPLERS, scheduler: SCHEDULERS, lora: LORAS }[key]).map(
        (t) => ({ kind: 'text', key, text: t }) as Term,
      ),
    ),
  fc
    .constantFrom('comfy', 'Automatic1111', 'invokeai', 'a1111')
    .map((t) => ({ kind: 'text', key: 'source', text: t }) as Term),
  fc.constantFrom(...SOURCES).map((t) => ({ kind: 'text', key: 'provider', text: t }) as Term),
  fc.constantFrom('succeeded', 'failed').map((t) => ({ kind: 'text', key: 'status', text: t }) as Term),
  text(TAGS).map((t) => ({ kind: 'text', key: 'tag', text: t }) as Term),
  fc.constantFrom('blurry', 'WATERMARK').map((t) => ({ kind: 'text', key: 'negative', text: t }) as Term),
  fc.constantFrom('comfyui/', 'pictures', 'dreamshaper').map((t) => ({ kind: 'text', key: 'path', text: t }) as Term),
  numberMatch(10, 60).map((match) => ({ kind: 'number', key: 'steps', match }) as Term),
  numberMatch(2, 12).map((match) => ({ kind: 'number', key: 'cfg', match }) as Term),
  numberMatch(500, 1400).map((match) => ({ kind: 'number', key: 'w', match }) as Term),
  numberMatch(500, 1100).map((match) => ({ kind: 'number', key: 'h', match }) as Term),
  numberMatch(0, 5).map((match) => ({ kind: 'number', key: 'rating', match }) as Term),
  fc
    .oneof(
      fc.bigInt({ min: 0n, max: 5000n }).map((s) => ({ exact: s.toString() })),
      fc.integer({ min: 1, max: 99 }).map((p) => ({ prefix: String(p) })),
      fc
        .tuple(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }))
        .map(([a, b]) => ({ from: (a < b ? a : b).toString(), to: (a < b ? b : a).toString() })),
      fc
        .tuple(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 2000, max: 6000 }))
        .map(([a, b]) => ({ from: String(a), to: String(b) })),
    )
    .map((match) => ({ kind: 'seed', match }) as Term),
  fc.constantFrom(...SIZES).map(([w, h]) => ({ kind: 'size', w, h }) as Term),
  fc
    .oneof(
      fc.constantFrom('portrait', 'landscape', 'square' as const).map((shape) => ({ shape })),
      fc.constant({ w: 16, h: 9 }),
    )
    .map((match) => ({ kind: 'ratio', match }) as Term),
  fc
    .oneof(
      fc.constantFrom('today', 'yesterday' as const).map((relative) => ({ relative })),
      fc.integer({ min: 1, max: 40 }).map((lastDays) => ({ lastDays })),
      fc.constantFrom(
        { from: '2026-11', to: '2026-11' },
        { from: '2026-10-01', to: '2026-10-31' },
        { from: '2026-10-15', to: '2026-11-05' },
      ),
    )
    .map((match) => ({ kind: 'date', match }) as Term),
  fc.constantFrom('favorite', 'trashed', 'failed', 'derived' as const).map((value) => ({ kind: 'is', value }) as Term),
);
const clause: fc.Arbitrary<Clause> = fc.record({
  negated: fc.boolean(),
  anyOf: fc.array(term, { minLength: 1, maxLength: 2 }),
});
const query: fc.Arbitrary<Query> = fc.array(clause, { minLength: 1, maxLength: 3 }).map((clauses) => ({ clauses }));

function listAll(store: JobStore, search: string, limit: number, sort: SortName = 'newest'): string[] {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = store.list({ limit, view: 'active', search, sort, ...(cursor !== undefined && { cursor }) });
    seen.push(...page.items.map((j: JobSummary) => j.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return seen;
}

describe('every key finds what a naive filter over the same rows finds (model test)', () => {
  it('agrees for random libraries and random queries of one to three clauses, through every page', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 30 }),
        fc.array(query, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 7 }),
        (rows, queries, limit) => {
          const { store, images } = seedStore(rows);
          try {
            for (const q of queries) {
              const search = formatQuery(q);
              const parsed = parseQuery(search);
              expect(parsed.ok, search).toBe(true);
              expect(listAll(store, search, limit), search).toEqual(expected(q, images));
            }
            // Sorted: oldest first and best rated first, with and without a query, across pages.
            for (const sort of ['oldest', 'rating'] as const) {
              expect(listAll(store, '', limit, sort), sort).toEqual(expected({ clauses: [] }, images, sort));
              const search = formatQuery(queries[0]!);
              expect(listAll(store, search, limit, sort), `${sort} ${search}`).toEqual(
                expected(queries[0]!, images, sort),
              );
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
