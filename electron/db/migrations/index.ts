import { migration0001 } from './0001_initial.js';
import { migration0002 } from './0002_search_favorite_budget.js';
import { migration0003 } from './0003_totals_counts.js';
import { migration0004 } from './0004_search_grams.js';
import { migration0005 } from './0005_image_seed.js';
import { migration0006 } from './0006_retry_link.js';
import { migration0007 } from './0007_favorites_outside_trash.js';
import { migration0008 } from './0008_library_import.js';
import { migration0009 } from './0009_exact_seeds.js';
import { migration0010 } from './0010_curation.js';
import { migration0011 } from './0011_perceptual_hash.js';
import { migration0012 } from './0012_search_indexes.js';
import { migration0013 } from './0013_lineage.js';
import { migration0014 } from './0014_presets.js';
import { migration0015 } from './0015_corrections_notes.js';
import { migration0016 } from './0016_reader_version.js';
import { migration0017 } from './0017_queue_control.js';
import { migration0018 } from './0018_job_costs.js';
import { migration0019 } from './0019_job_size_from_images.js';
import { migration0020 } from './0020_image_reject.js';
import { migration0021 } from './0021_prompt_only_search.js';
import { migration0022 } from './0022_curation_history_order.js';
import { migration0023 } from './0023_seed_job_index.js';
import { migration0024 } from './0024_sweeps.js';
import { migration0025 } from './0025_model_library.js';
import type { Migration } from './types.js';

/** Every migration, in order. Append only: a released migration never changes. */
export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
  migration0020,
  migration0021,
  migration0022,
  migration0023,
  migration0024,
  migration0025,
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
