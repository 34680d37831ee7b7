/**
 * The search box's query language, as a tree: pure data the main process turns into SQL.
 * A query is clauses ANDed together; `a | b` groups alternatives; `-` negates one clause.
 */

export const TEXT_KEYS = [
  'model',
  'sampler',
  'scheduler',
  'lora',
  'source',
  'provider',
  'status',
  'tag',
  'board',
  'path',
  'negative',
  'note',
  'import',
] as const;
export const NUMBER_KEYS = ['steps', 'cfg', 'w', 'h', 'rating'] as const;
export const IS_VALUES = ['favorite', 'trashed', 'rejected', 'failed', 'missing', 'derived'] as const;
export const RATIO_WORDS = ['portrait', 'landscape', 'square'] as const;

export type TextKey = (typeof TEXT_KEYS)[number];
export type NumberKey = (typeof NUMBER_KEYS)[number];
export type Comparison = '=' | '>' | '>=' | '<' | '<=';

/** A number compared, or a closed range `lo-hi`. */
export type NumberMatch = { op: Comparison; value: number } | { from: number; to: number };

/** A seed: exact digits, a prefix (`1234*`), or a range; kept as digit strings (seeds go past 2^53). */
export type SeedMatch = { exact: string } | { prefix: string } | { from: string; to: string };

export type DateMatch =
  | { relative: 'today' | 'yesterday' }
  | { lastDays: number }
  /** A calendar month or day, or an inclusive range of days: `2026-11`, `2026-01-01..2026-03-31`. */
  | { from: string; to: string };

export type RatioMatch = { shape: (typeof RATIO_WORDS)[number] } | { w: number; h: number };

export type Term =
  | { kind: 'word'; text: string }
  | { kind: 'phrase'; text: string }
  | { kind: 'text'; key: TextKey; text: string }
  | { kind: 'number'; key: NumberKey; match: NumberMatch }
  | { kind: 'seed'; match: SeedMatch }
  | { kind: 'size'; w: number; h: number }
  | { kind: 'ratio'; match: RatioMatch }
  | { kind: 'date'; match: DateMatch }
  | { kind: 'is'; value: (typeof IS_VALUES)[number] }
  /** Made from this image (image-to-image, masked edit, variation, upscale). */
  | { kind: 'from'; imageId: string }
  /** A sweep's cells: its id, or the first 8 or more characters of it. */
  | { kind: 'sweep'; id: string };

export interface Clause {
  negated: boolean;
  /** One term, or alternatives (`a | b`): any of them matches. */
  anyOf: Term[];
}

export interface Query {
  clauses: Clause[];
}

export interface QueryError {
  /** Offset in the text where the problem starts. */
  at: number;
  message: string;
}

export type ParseResult = { ok: true; query: Query } | { ok: false; error: QueryError };
