/**
 * A person's corrections of what an imported file was read to say, and a free-text note per image. Both sit beside
 * what the file says (the job's request and metadata never change), so the file's own values stay shown and a re-read
 * of the file cannot lose them.
 */
import { z } from 'zod';
import { Id, Seed, int, num, typedName } from './common.js';

/** The settings a person may correct, in the order Details shows them (size is width and height). */
export const CORRECTABLE_FIELDS = [
  'prompt',
  'negativePrompt',
  'model',
  'seed',
  'steps',
  'guidance',
  'sampler',
  'width',
  'height',
] as const;
export const CorrectableField = z.enum(CORRECTABLE_FIELDS);
export type CorrectableField = z.infer<typeof CorrectableField>;

const name = (what: string, max: number) =>
  typedName(`${what} name`, max, `A ${what} name cannot be empty: revert the correction instead.`);

/** Corrected values, each within what Atelier can generate with (so Reuse sends them as they are). */
export const Corrections = z.strictObject({
  prompt: z.string().max(32_000, 'A prompt is at most 32,000 characters.').optional(),
  /** Empty: the file named a negative prompt the image was not made with. */
  negativePrompt: z.string().max(32_000, 'A negative prompt is at most 32,000 characters.').optional(),
  model: name('model', 200).optional(),
  seed: Seed.optional(),
  steps: int('Steps', 1, 150).optional(),
  guidance: num('Guidance', 0, 30).optional(),
  sampler: name('sampler', 64).optional(),
  width: int('Width', 1, 65_535).optional(),
  height: int('Height', 1, 65_535).optional(),
});
export type Corrections = z.infer<typeof Corrections>;

export const CorrectSettings = z.strictObject({
  jobId: Id,
  set: Corrections.refine((c) => Object.keys(c).length > 0, 'Name at least one setting to correct.'),
});
/** Back to what the file says: the fields named, or every correction when none is named. */
export const RevertCorrections = z.strictObject({
  jobId: Id,
  fields: z.array(CorrectableField).min(1, 'Name a setting, or leave fields out to revert all.').optional(),
});
export const CorrectedSettings = z.object({ corrections: Corrections });
export type CorrectedSettings = z.infer<typeof CorrectedSettings>;

export const MAX_NOTE_CHARS = 10_000;
// eslint-disable-next-line no-control-regex -- a note keeps its lines and tabs, nothing else below space
const NOTE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** A note's text: lines kept, ends trimmed; empty removes the note. */
export const NoteText = z
  .string()
  .transform((s) => s.replace(/\r\n?/g, '\n').trim())
  .pipe(
    z
      .string()
      .max(MAX_NOTE_CHARS, `A note is at most ${MAX_NOTE_CHARS.toLocaleString('en-US')} characters.`)
      .refine((s) => !NOTE_CONTROL.test(s), 'A note cannot contain control characters.'),
  );
export const SetImageNote = z.strictObject({ imageId: Id, text: NoteText });

export const ImageNote = z.object({ imageId: Id, text: z.string(), updatedAt: z.number().int() });
export type ImageNote = z.infer<typeof ImageNote>;
export const SavedNote = z.object({ note: ImageNote.nullable() });
