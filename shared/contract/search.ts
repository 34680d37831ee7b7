/** Search-box help: suggestions for the key or value under the caret. */
import { z } from 'zod';

export const SuggestRequest = z.strictObject({
  text: z.string().max(1_000, 'A search is at most 1,000 characters.'),
  cursor: z.number().int().min(0).max(1_000),
});

export const Suggestion = z.object({
  /** What the list shows, e.g. `model:` or `sdxl_base_1.0`. */
  label: z.string(),
  /** The text that replaces [from, to) of the search, quoted where it needs to be. */
  insert: z.string(),
  kind: z.enum(['key', 'value']),
  /** How many images hold the value (values only). */
  count: z.number().int().optional(),
  /** One line of help (keys only). */
  hint: z.string().optional(),
});
export type Suggestion = z.infer<typeof Suggestion>;

export const SuggestResult = z.object({ items: z.array(Suggestion), from: z.number().int(), to: z.number().int() });
export type SuggestResult = z.infer<typeof SuggestResult>;
