/** One metadata text is kept up to this many characters: a hostile or broken file cannot make the index huge. */
export const MAX_TEXT_CHARS = 4 * 1024 * 1024;

export interface CappedText {
  text: string;
  cut: boolean;
}

export function capText(text: string): CappedText {
  return text.length > MAX_TEXT_CHARS ? { text: text.slice(0, MAX_TEXT_CHARS), cut: true } : { text, cut: false };
}

export function cutProblem(key: string): string {
  return `The text "${key}" is larger than ${MAX_TEXT_CHARS / (1024 * 1024)} MB; only its first ${MAX_TEXT_CHARS / (1024 * 1024)} MB were kept.`;
}
