import type { Migration } from './types.js';

/**
 * Version 18: what each paid job cost (electron/spend/): the provider's reported figure, else the price table's
 * estimate, in whole micro-dollars so sums are exact. `day` is the local date the cost was recorded (YYYY-MM-DD),
 * fixed at write time, so a day's and a month's spend are index ranges on (provider, day). No foreign key: money
 * spent stays spent when its job is purged.
 */
export const migration0018: Migration = {
  version: 18,
  name: 'job_costs',
  up(db) {
    db.exec(`
      CREATE TABLE job_costs (
        job_id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        kind TEXT NOT NULL,
        model TEXT NOT NULL,
        usd_micros INTEGER NOT NULL CHECK (usd_micros >= 0),
        source TEXT NOT NULL CHECK (source IN ('reported', 'estimated')),
        at INTEGER NOT NULL,
        day TEXT NOT NULL CHECK (length(day) = 10)
      ) STRICT;
      CREATE INDEX job_costs_provider_day ON job_costs (provider, day, usd_micros);
      CREATE INDEX job_costs_kind_model ON job_costs (kind, model);
    `);
  },
};
