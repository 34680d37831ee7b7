import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTemplate, takesPrompt, templateProblem } from '../../../shared/prompt-template.js';

// Text that never spells a placeholder of any kind (no braces, brackets or angle brackets).
const plain = fc.string({ unit: fc.constantFrom('a', 'p', 'r', 'o', 'm', 't', ' ', ',', 'é', '\n') });

describe('a preset template', () => {
  it('with {prompt}: the typed prompt goes at every {prompt}, the rest stays as written', () => {
    fc.assert(
      fc.property(plain, plain, plain, (before, after, typed) => {
        expect(applyTemplate(`${before}{prompt}${after}{prompt}`, typed)).toBe(`${before}${typed}${after}${typed}`);
        expect(takesPrompt(`${before}{prompt}${after}`)).toBe(true);
      }),
    );
  });

  it('without {prompt}: a fixed prompt that replaces what was typed; no template (or a blank one) keeps the typed prompt', () => {
    fc.assert(
      fc.property(
        plain.filter((t) => t.trim().length > 0),
        plain,
        (fixed, typed) => {
          expect(applyTemplate(fixed, typed)).toBe(fixed);
          expect(takesPrompt(fixed)).toBe(false);
          expect(templateProblem(fixed)).toBeUndefined();
        },
      ),
    );
    expect(applyTemplate(undefined, 'a fox')).toBe('a fox');
    expect(applyTemplate('  ', 'a fox')).toBe('a fox');
  });

  it('a near miss of the placeholder is named, so it is not mistaken for a fixed prompt', () => {
    for (const typo of ['{Prompt}', '{ prompt }', '{{prompt}}', '[prompt]', '<PROMPT>', '{prompt ]']) {
      expect(templateProblem(`photo of ${typo}, 35mm`), typo).toBe(
        `Write the placeholder as {prompt}, exactly: "${typo}" would stay in the prompt as text. A template without {prompt} is used as a fixed prompt.`,
      );
    }
    expect(templateProblem('photo of {prompt}, {lighting}')).toBeUndefined();
  });
});
