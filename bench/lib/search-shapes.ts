/**
 * The query shapes bench/search times, each with varied values and the naive way to answer it: a LIKE or
 * json_extract over the stored request/metadata JSON (as InvokeAI filters), or a per-job check of its images with
 * their indexes switched off (`+column`), walking the history newest first. Both sides return the same page.
 */
const LIKE = (column: string) => `lower(${column}) LIKE ?`;
const has = (v: string) => `%${v.toLowerCase()}%`;
/** An image of the job, outside the trash, passing `cond` (no index on the image columns: `+` turns it off). */
/** Free text as a naive store finds it: LIKE over the prompt, the negative prompt and the settings JSON. */
const TEXT = "lower(j.prompt || ' ' || coalesce(j.negative_prompt, '') || ' ' || coalesce(j.metadata_json, '')) LIKE ?";
const imageHas = (cond: string) =>
  `EXISTS (SELECT 1 FROM images AS i WHERE i.job_id = j.id AND i.trashed_at IS NULL AND ${cond})`;

export interface Naive {
  where: string;
  params: unknown[];
}

export interface Shape {
  name: string;
  queries: string[];
  /** The naive WHERE for query i; undefined when there is no naive equivalent (accent folding). */
  naive: (i: number) => Naive | undefined;
  target: number;
}

function numberNaive(expr: string, text: string): Naive {
  const range = /^(-?[\d.]+)-([\d.]+)$/.exec(text);
  if (range !== null) return { where: `${expr} BETWEEN ? AND ?`, params: [Number(range[1]), Number(range[2])] };
  const op = /^(>=|<=|>|<)?([\d.]+)$/.exec(text)!;
  return { where: `${expr} ${op[1] ?? '='} ?`, params: [Number(op[2])] };
}

const json = (path: string) => `json_extract(j.request_json, '$.${path}')`;
const meta = (path: string) => `json_extract(j.metadata_json, '$.${path}')`;

/** Values a library holds: picked from the seeded data (seeds) or the seeder's own lists. */
export function shapes(seeds: number[], now: number): Shape[] {
  const month = new Date(now).toISOString().slice(0, 7);
  const dayMs = 86_400_000;
  const localMidnight = (ms: number) => {
    const d = new Date(ms);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  };
  const today = localMidnight(now);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const dates: Array<[string, number, number]> = [
    ['today', today, new Date(today).setDate(new Date(today).getDate() + 1)],
    ['yesterday', new Date(today).setDate(new Date(today).getDate() - 1), today],
    ['7d', now - 7 * dayMs, Number.MAX_SAFE_INTEGER],
    [month, new Date(y, m - 1, 1).getTime(), new Date(y, m, 1).getTime()],
    [
      `${y}-${String(m).padStart(2, '0')}-01..${y}-${String(m).padStart(2, '0')}-10`,
      new Date(y, m - 1, 1).getTime(),
      new Date(y, m - 1, 11).getTime(),
    ],
  ];
  const seedText = seeds.map(String);
  const prefixes = seeds.map((s) => String(s).slice(0, 4));
  const ranges = seeds.map((s) => [s - 2_000_000, s + 2_000_000] as const);
  const size = (text: string) => text.split('x').map(Number) as [number, number];
  const ratios: Record<string, string> = {
    portrait: `${json('height')} > ${json('width')}`,
    landscape: `${json('width')} > ${json('height')}`,
    square: `${json('width')} = ${json('height')}`,
    '16:9': `abs(${json('width')} * 9 - ${json('height')} * 16) <= 0.01 * ${json('height')} * 16`,
  };
  const list = (
    name: string,
    key: string,
    values: string[],
    naive: (v: string) => Naive | undefined,
    target = 10,
  ): Shape => ({
    name,
    queries: values.map((v) => `${key}${v}`),
    naive: (i) => naive(values[i]!),
    target,
  });
  const quote = (v: string) => (/\s/.test(v) ? `"${v}"` : v);
  return [
    list(
      'model:',
      'model:',
      ['juggernaut', 'pony', 'dreamshaper', 'flux1', 'photon', 'sd_xl_base', 'counterfeit'],
      (v) => ({ where: LIKE(meta('model')), params: [has(v)] }),
    ),
    list('sampler:', 'sampler:', ['euler', 'dpmpp_2m', 'ddim', 'heun', 'lcm', 'uni_pc', 'lms'], (v) => ({
      where: LIKE(meta('sampler')),
      params: [has(v)],
    })),
    list('scheduler:', 'scheduler:', ['karras', 'normal', 'exponential', 'sgm'], (v) => ({
      where: LIKE(meta('scheduler')),
      params: [has(v)],
    })),
    list(
      'lora:',
      'lora:',
      ['add_detail', 'ghibli', 'pixel_art_v3', 'hands_fix_v5', 'film_grain_v1', 'cyberpunk_neon_v2'],
      (v) => ({
        where: `EXISTS (SELECT 1 FROM json_each(j.metadata_json, '$.loras') AS l WHERE lower(json_extract(l.value, '$.name')) LIKE ?)`,
        params: [has(v)],
      }),
    ),
    list('seed: exact', 'seed:', seedText, (v) => ({ where: imageHas('+i.seed = ?'), params: [Number(v)] })),
    list(
      'seed: prefix*',
      'seed:',
      prefixes.map((p) => `${p}*`),
      (v) => ({ where: imageHas('CAST(+i.seed AS TEXT) GLOB ?'), params: [v] }),
    ),
    list(
      'seed: range',
      'seed:',
      ranges.map(([a, b]) => `${a}-${b}`),
      (v) => ({ where: imageHas('+i.seed BETWEEN ? AND ?'), params: v.split('-').map(Number) }),
    ),
    list('steps:', 'steps:', ['20', '20-30', '>=50', '13', '<15', '28'], (v) => numberNaive(json('steps'), v)),
    list('cfg:', 'cfg:', ['7', '>=12', '1-2', '7.5', '<3', '4.5'], (v) => numberNaive(json('guidance'), v)),
    list('size:', 'size:', ['1024x1024', '1536x640', '512x768', '832x1216', '1024x576'], (v) => ({
      where: `${json('width')} = ? AND ${json('height')} = ?`,
      params: size(v),
    })),
    list('w:', 'w:', ['>=1024', '1536', '<768', '832'], (v) => numberNaive(json('width'), v)),
    list('h:', 'h:', ['<768', '1344', '>=1200', '576'], (v) => numberNaive(json('height'), v)),
    list('ratio:', 'ratio:', ['portrait', 'landscape', 'square', '16:9'], (v) => ({ where: ratios[v]!, params: [] })),
    list('rating:', 'rating:', ['>=4', '5', '1', '>=1', '2-3'], (v) => {
      const n = numberNaive('+i.rating', v);
      return { where: imageHas(n.where), params: n.params };
    }),
    list('tag:', 'tag:', ['keeper', 'portfolio', 'wip', 'cover', 'mood-3', 'sketch-12', 'palette-19'], (v) => ({
      where: imageHas(
        'EXISTS (SELECT 1 FROM image_tags AS it CROSS JOIN tags AS t ON t.id = it.tag_id WHERE it.image_id = i.id AND t.name = ?)',
      ),
      params: [v],
    })),
    list('board:', 'board:', ['"Cover ideas"', '"Portfolio 2026"', 'textures', '"print shop"'], (v) => ({
      where: imageHas(
        'EXISTS (SELECT 1 FROM board_images AS bi CROSS JOIN boards AS b ON b.id = bi.board_id WHERE bi.image_id = i.id AND b.key = ?)',
      ),
      params: [v.replaceAll('"', '').toLowerCase()],
    })),
    list('is:favorite', 'is:', ['favorite'], () => ({ where: imageHas('+i.favorite = 1'), params: [] })),
    list(
      'date:',
      'date:',
      dates.map(([d]) => d),
      (v) => {
        const [, from, to] = dates.find(([d]) => d === v)!;
        return { where: '+j.created_at >= ? AND +j.created_at < ?', params: [from, to] };
      },
    ),
    list('source:', 'source:', ['comfyui', 'invokeai', 'fooocus', 'a1111'], (v) => ({
      where: '+j.source = ?',
      params: [v],
    })),
    list('provider:', 'provider:', ['openai', 'builtin', 'comfyui'], (v) => ({
      where: `${json('provider')} = ?`,
      params: [v],
    })),
    list(
      'free word',
      '',
      ['lighthouse', 'watercolor', 'quetzalcoatl', 'zeppelin', 'owl', '東京の夜', 'cervena'],
      (v) => (v === 'cervena' ? undefined : { where: TEXT, params: [has(v)] }),
    ),
    list(
      '"phrase"',
      '',
      ['oil painting', 'golden hour', 'pixel art of a robot', 'ink sketch of a fox'].map((p) => `"${p}"`),
      (v) => ({
        where: TEXT,
        params: [has(v.replaceAll('"', ''))],
      }),
    ),
    {
      name: 'text + model + rating',
      queries: [
        'lighthouse model:juggernaut rating:>=4',
        'watercolor model:pony rating:5',
        'owl model:dreamshaper rating:>=3',
        'castle model:flux1 rating:>=4',
        'fog model:sd_xl rating:>=2',
      ],
      naive: (i: number) => {
        const [word, model, rating] = [
          ['lighthouse', 'juggernaut', '>=4'],
          ['watercolor', 'pony', '5'],
          ['owl', 'dreamshaper', '>=3'],
          ['castle', 'flux1', '>=4'],
          ['fog', 'sd_xl', '>=2'],
        ][i]!;
        const r = numberNaive('+i.rating', rating!);
        return {
          where: `${TEXT} AND ${LIKE(meta('model'))} AND ${imageHas(r.where)}`,
          params: [has(word!), has(model!), ...r.params],
        };
      },
      target: 50,
    },
  ].map((s) => ({
    ...s,
    queries: s.queries.map((q) =>
      q.startsWith('"')
        ? q
        : q
            .split(' ')
            .map((w) => quote(w))
            .join(' '),
    ),
  }));
}

/** Deep pages: follow cursors this many pages in, then time the next page. */
export const DEEP: ReadonlyArray<[shape: string, value: number]> = [
  ['model:', 0],
  ['sampler:', 0],
  ['lora:', 0],
  ['steps:', 1],
  ['rating:', 0],
  ['tag:', 0],
  ['tag:', 4],
  ['is:favorite', 0],
  ['size:', 0],
  ['free word', 0],
  ['"phrase"', 0],
  ['text + model + rating', 4],
];

export const SUGGEST_TEXTS = [
  'model:ju',
  'model:',
  'sampler:dp',
  'lora:det',
  'lora:',
  'tag:kee',
  'tag:',
  'tag:mood',
  'board:co',
  'mo',
  'scheduler:k',
  'ta',
  'red fox model:pon',
  'is:f',
];
