import type { Db } from '../connection.js';

export interface Migration {
  version: number;
  name: string;
  /** Runs inside the one migration transaction; may use JS (e.g. Unicode folding) to backfill. */
  up(db: Db): void;
}
