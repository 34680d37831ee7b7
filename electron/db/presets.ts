import type { z } from 'zod';
import type { Preset, SavePreset } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import { templateProblem } from '../../shared/prompt-template.js';
import type { StoreContext } from './context.js';
import { foldForSearch } from './fold.js';
import type { Access } from './guard.js';

export type SavePresetInput = z.infer<typeof SavePreset>;

/** One style read from a styles.csv, ready to store: its line in the file, its name, template and negative prompt. */
export interface ImportedStyle {
  line: number;
  name: string;
  template?: string;
  negativePrompt?: string;
}

export interface StylesOutcome {
  imported: number;
  updated: number;
  skipped: Array<{ line: number; reason: string }>;
}

/** Presets as saved. */
export interface PresetReads {
  /** Every preset, by name (case-insensitive, numbers in order: "Style 2" before "Style 10"). */
  list(): Preset[];
}

/** Presets saved, removed or imported (each guarded as a write). */
export interface PresetWrites {
  /** Creates, or with an id replaces that preset's settings; names are unique whatever their case or accents. */
  save(input: SavePresetInput): Preset;
  /** Removes one preset; 0 when it was already gone. */
  delete(id: string): number;
  /** Styles as presets in one transaction: new names are added, styles imported before are updated. */
  importStyles(styles: ImportedStyle[]): StylesOutcome;
}

export type PresetStore = PresetReads & PresetWrites;

interface PresetRow {
  id: string;
  name: string;
  source: 'atelier' | 'styles.csv';
  provider: string | null;
  model: string | null;
  width: number | null;
  height: number | null;
  steps: number | null;
  guidance: number | null;
  sampler: string | null;
  scheduler: string | null;
  negative_prompt: string | null;
  template: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS =
  'id, name, source, provider, model, width, height, steps, guidance, sampler, scheduler, negative_prompt, template, created_at, updated_at';

/** Names compare folded (case, accents, width) with runs of spaces as one. */
export const presetKey = (name: string): string => foldForSearch(name).trim().replace(/\s+/gu, ' ');

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function toPreset(row: PresetRow): Preset {
  const optional = {
    provider: row.provider,
    model: row.model,
    width: row.width,
    height: row.height,
    steps: row.steps,
    guidance: row.guidance,
    sampler: row.sampler,
    scheduler: row.scheduler,
    negativePrompt: row.negative_prompt,
    template: row.template,
  };
  const present = Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== null));
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...present,
  };
}

/** An empty template is no template; a misspelled placeholder is refused (the person meant {prompt}). */
function checkedTemplate(template: string | undefined): string | null {
  if (template === undefined || template.trim().length === 0) return null;
  const problem = templateProblem(template);
  if (problem !== undefined)
    throw new AppError('invalid_request', problem, { details: { fields: { template: problem } } });
  return template;
}

export function createPresets(ctx: StoreContext): Access<PresetReads, PresetWrites> {
  const { sql } = ctx;
  const all = sql.prepare<PresetRow>('presets.list', `SELECT ${COLUMNS} FROM presets`);
  const byId = sql.prepare<PresetRow>('presets.get', `SELECT ${COLUMNS} FROM presets WHERE id = ?`);
  const byKey = sql.prepare<PresetRow>('presets.byKey', `SELECT ${COLUMNS} FROM presets WHERE key = ?`);
  const insert = sql.prepare(
    'presets.insert',
    `INSERT INTO presets (id, name, key, source, provider, model, width, height, steps, guidance, sampler, scheduler, negative_prompt, template, created_at, updated_at)
     VALUES (@id, @name, @key, @source, @provider, @model, @width, @height, @steps, @guidance, @sampler, @scheduler, @negative_prompt, @template, @now, @now)`,
  );
  const replace = sql.prepare(
    'presets.update',
    `UPDATE presets SET name = @name, key = @key, provider = @provider, model = @model, width = @width, height = @height, steps = @steps,
       guidance = @guidance, sampler = @sampler, scheduler = @scheduler, negative_prompt = @negative_prompt, template = @template, updated_at = @now
     WHERE id = @id`,
  );
  const restyle = sql.prepare(
    'presets.restyle',
    'UPDATE presets SET name = @name, negative_prompt = @negative_prompt, template = @template, updated_at = @now WHERE id = @id',
  );
  const drop = sql.prepare('presets.delete', 'DELETE FROM presets WHERE id = ?');

  const get = (id: string): PresetRow => {
    const row = byId.get(id);
    if (row === undefined)
      throw new AppError('not_found', 'There is no preset with that id: it may have been deleted.');
    return row;
  };

  const save = (input: SavePresetInput): Preset => {
    const name = input.name.trim();
    if (name.length === 0)
      throw new AppError('invalid_request', 'Give the preset a name.', {
        details: { fields: { name: 'Give the preset a name.' } },
      });
    const key = presetKey(name);
    const other = byKey.get(key);
    if (other !== undefined && other.id !== input.id) {
      const message = `There is already a preset called "${other.name}". Choose another name, or open that preset to change it.`;
      throw new AppError('conflict', message, { details: { fields: { name: message } } });
    }
    const values = {
      name,
      key,
      provider: input.provider ?? null,
      model: input.model ?? null,
      width: input.width ?? null,
      height: input.height ?? null,
      steps: input.steps ?? null,
      guidance: input.guidance ?? null,
      sampler: input.sampler ?? null,
      scheduler: input.scheduler ?? null,
      negative_prompt: input.negativePrompt ?? null,
      template: checkedTemplate(input.template),
      now: ctx.now(),
    };
    if (input.id !== undefined) {
      get(input.id);
      replace.run({ ...values, id: input.id });
      return toPreset(get(input.id));
    }
    const id = uuidv7(values.now);
    insert.run({ ...values, id, source: 'atelier' });
    return toPreset(get(id));
  };

  const importStyles = ctx.db.transaction((styles: ImportedStyle[]): StylesOutcome => {
    const outcome: StylesOutcome = { imported: 0, updated: 0, skipped: [] };
    const now = ctx.now();
    for (const style of styles) {
      const key = presetKey(style.name);
      const values = {
        name: style.name,
        negative_prompt: style.negativePrompt ?? null,
        template: style.template ?? null,
        now,
      };
      const existing = byKey.get(key);
      if (existing === undefined) {
        insert.run({
          ...values,
          id: uuidv7(now),
          key,
          source: 'styles.csv',
          provider: null,
          model: null,
          width: null,
          height: null,
          steps: null,
          guidance: null,
          sampler: null,
          scheduler: null,
        });
        outcome.imported += 1;
      } else if (existing.source === 'styles.csv') {
        // Only what a styles file holds changes: settings the person added to an imported style stay.
        restyle.run({ ...values, id: existing.id });
        outcome.updated += 1;
      } else {
        outcome.skipped.push({
          line: style.line,
          reason: `You already have a preset called "${existing.name}" made in Atelier; rename it to import this style.`,
        });
      }
    }
    return outcome;
  });

  return {
    reads: {
      list: () =>
        all
          .all()
          .sort((a, b) => byName.compare(a.name, b.name) || a.id.localeCompare(b.id))
          .map(toPreset),
    },
    writes: {
      save,
      delete: (id: string) => drop.run(id).changes,
      importStyles,
    },
  };
}
