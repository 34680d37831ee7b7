/** What Details shows of a job's settings, as corrected and as its file says, and what a correction form changes. */
import type { CorrectableField, Corrections, JobDetail } from '../../../shared/contract';
import { effectiveSettings, fileSettings, type ImageSettings } from '../../../shared/corrections/effective';
import { formatSeed } from '../../../shared/seed';

/** One row of Details' settings: size joins width and height (reverted together). */
export type SettingRow = 'negativePrompt' | 'model' | 'seed' | 'steps' | 'guidance' | 'sampler' | 'size';

export const ROW_LABELS: Record<SettingRow | 'prompt', string> = {
  prompt: 'Prompt',
  negativePrompt: 'Negative',
  model: 'Model',
  seed: 'Seed',
  steps: 'Steps',
  guidance: 'Guidance',
  sampler: 'Sampler',
  size: 'Size',
};

export const ROW_FIELDS: Record<SettingRow | 'prompt', CorrectableField[]> = {
  prompt: ['prompt'],
  negativePrompt: ['negativePrompt'],
  model: ['model'],
  seed: ['seed'],
  steps: ['steps'],
  guidance: ['guidance'],
  sampler: ['sampler'],
  size: ['width', 'height'],
};

export interface SettingsView {
  effective: ImageSettings;
  file: ImageSettings;
  corrections: Corrections;
}

export function settingsView(detail: JobDetail): SettingsView {
  const source = { request: detail.request, metadata: detail.metadata, seed: detail.result?.seed };
  const corrections = detail.corrections ?? {};
  return { effective: effectiveSettings(source, corrections), file: fileSettings(source), corrections };
}

/** A row's value as text ('' when the settings have none). */
export function rowText(settings: ImageSettings, row: SettingRow | 'prompt'): string {
  if (row === 'size') return `${settings.width} × ${settings.height}`;
  if (row === 'seed') return settings.seed === undefined ? '' : formatSeed(settings.seed);
  const value = settings[row];
  return value === undefined ? '' : String(value);
}

export const isCorrected = (view: SettingsView, row: SettingRow | 'prompt'): boolean =>
  ROW_FIELDS[row].some((f) => view.corrections[f] !== undefined);

/** The correction form's text fields, filled with the effective settings. */
export type FormValues = Record<CorrectableField, string>;

export function formValues(settings: ImageSettings): FormValues {
  return {
    prompt: settings.prompt,
    negativePrompt: settings.negativePrompt ?? '',
    model: settings.model ?? '',
    seed: settings.seed === undefined ? '' : formatSeed(settings.seed),
    steps: settings.steps === undefined ? '' : String(settings.steps),
    guidance: settings.guidance === undefined ? '' : String(settings.guidance),
    sampler: settings.sampler ?? '',
    width: String(settings.width),
    height: String(settings.height),
  };
}

const NUMERIC: ReadonlySet<CorrectableField> = new Set(['steps', 'guidance', 'width', 'height']);

/**
 * The fields a person changed, as a correction to send: a field left as it was is not sent; an emptied name or
 * number is not a value (revert gives the file's back). Numbers go as numbers, the seed as its digits (the engine
 * checks every range and says what is wrong).
 */
export function changedFields(before: FormValues, after: FormValues): Record<string, string | number> {
  const set: Record<string, string | number> = {};
  for (const field of Object.keys(after) as CorrectableField[]) {
    // Prompts are prose: their spaces are the person's; every other field is a name or a number.
    const prose = field === 'prompt' || field === 'negativePrompt';
    const text = prose ? after[field] : after[field].trim();
    if (text === (prose ? before[field] : before[field].trim())) continue;
    if (!prose && text === '') continue;
    set[field] = NUMERIC.has(field) && Number.isFinite(Number(text)) ? Number(text) : text;
  }
  return set;
}
