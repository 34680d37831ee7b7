/** A preset's prompt template: `{prompt}` is where the typed prompt goes; a template without it is a fixed prompt. */

export const PROMPT_PLACEHOLDER = '{prompt}';

// Near misses of the placeholder ({Prompt}, { prompt }, {{prompt}}, [prompt], <prompt>) that would stay in as text.
const LOOKALIKE = /[{[<]{1,2}\s*prompt\s*[}\]>]{1,2}/giu;

/** The prompt a template makes: every `{prompt}` replaced by the typed text, or the template itself when it has none. */
export function applyTemplate(template: string | undefined, prompt: string): string {
  if (template === undefined || template.trim().length === 0) return prompt;
  return template.replaceAll(PROMPT_PLACEHOLDER, prompt);
}

/** Whether a template takes the typed prompt (true) or replaces it with fixed text (false). */
export function takesPrompt(template: string): boolean {
  return template.includes(PROMPT_PLACEHOLDER);
}

/** Why a template would not do what it looks like (a misspelled placeholder), or undefined when it is fine. */
export function templateProblem(template: string): string | undefined {
  for (const match of template.matchAll(LOOKALIKE)) {
    if (match[0] !== PROMPT_PLACEHOLDER) {
      return `Write the placeholder as {prompt}, exactly: "${match[0]}" would stay in the prompt as text. A template without {prompt} is used as a fixed prompt.`;
    }
  }
  return undefined;
}
