/**
 * ComfyUI's UI takes `/* … *\/` and `// …` comments out of a prompt widget's text when it queues the prompt
 * (dynamic prompts): a workflow read alone must do the same to give the text that ran. One pass, linear in the text.
 */
export function withoutComments(text: string): string {
  if (!text.includes('/')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const next = text.indexOf('/', i);
    if (next < 0 || next + 1 >= text.length) break;
    const kind = text[next + 1];
    if (kind !== '*' && kind !== '/') {
      out += text.slice(i, next + 1);
      i = next + 1;
      continue;
    }
    out += text.slice(i, next);
    const end = kind === '*' ? text.indexOf('*/', next + 2) : text.indexOf('\n', next + 2);
    // An unclosed block comment runs to the end; a line comment leaves its newline.
    i = end < 0 ? text.length : kind === '*' ? end + 2 : end;
  }
  return out + text.slice(i);
}
