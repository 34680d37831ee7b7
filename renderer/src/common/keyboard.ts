export type Command =
  | 'focusSearch'
  | 'submit'
  | 'favorite'
  | 'delete'
  | 'open'
  | 'close'
  | 'prev'
  | 'next'
  | 'up'
  | 'down'
  | 'first'
  | 'last'
  | 'selectAll'
  | 'undo'
  | 'zoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'zoomFit'
  | 'zoomActual'
  | 'details'
  | 'retry'
  | 'import'
  | 'rate'
  | 'useAsInput'
  | 'edit'
  | 'variations'
  | 'upscale'
  | 'addReference'
  | 'thumbsBigger'
  | 'thumbsSmaller'
  | 'compose'
  | 'reject'
  | 'queue'
  | 'models'
  | 'shortcuts';

export type KeyContext = 'grid' | 'viewer' | 'composer' | 'other';

export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The key went to a text field: plain letters belong to the text there. */
  inTextField: boolean;
}

/** The one place keys become commands; components act on commands, never on raw keys. */
export function keyToCommand(input: KeyInput, context: KeyContext): Command | null {
  const mod = input.ctrlKey || input.metaKey;
  if (input.altKey) return null;
  if (mod && input.key === 'Enter') return context === 'composer' ? 'submit' : null;
  if (input.key === 'Escape') return 'close';
  // Ctrl/Cmd+I imports from anywhere, a text field too (plain text fields have no italics to lose).
  if (mod && !input.shiftKey && (input.key === 'i' || input.key === 'I')) return 'import';
  if (input.inTextField) return null;
  if (mod) {
    if (input.key === 'a' || input.key === 'A') return context === 'grid' ? 'selectAll' : null;
    if ((input.key === 'z' || input.key === 'Z') && !input.shiftKey) return 'undo';
    // Ctrl/Cmd + and −: the gallery's thumbnails, from dense to large (the page itself keeps its size).
    if (input.key === '=' || input.key === '+') return context === 'viewer' ? null : 'thumbsBigger';
    if (input.key === '-' || input.key === '_') return context === 'viewer' ? null : 'thumbsSmaller';
    // Ctrl/Cmd+0 and +1 as in image editors: plain digits rate.
    if (input.key === '0') return context === 'viewer' ? 'zoomFit' : null;
    if (input.key === '1') return context === 'viewer' ? 'zoomActual' : null;
    return null;
  }
  // 0–5 rate the focused image (0 clears); read the digit with ratingOfKey.
  if (ratingOfKey(input.key) !== null) return context === 'grid' || context === 'viewer' ? 'rate' : null;
  switch (input.key) {
    case '/':
      return 'focusSearch';
    // ?: the keyboard cheat sheet (app/CheatSheet.tsx).
    case '?':
      return 'shortcuts';
    // N: a new prompt (in a narrow window the composer is a drawer, and N opens it).
    case 'n':
    case 'N':
      return context === 'grid' || context === 'other' ? 'compose' : null;
    // Q: the queue panel, beside the gallery.
    case 'q':
    case 'Q':
      return context === 'grid' || context === 'other' ? 'queue' : null;
    // M: the Models screen (models/ModelLibrary.tsx), and back.
    case 'm':
    case 'M':
      return context === 'grid' || context === 'other' ? 'models' : null;
    case 'f':
    case 'F':
      return context === 'grid' || context === 'viewer' ? 'favorite' : null;
    // X rejects the focused image, as Lightroom's reject flag (X again clears it).
    case 'x':
    case 'X':
      return context === 'grid' || context === 'viewer' ? 'reject' : null;
    case 'Delete':
    case 'Backspace':
      return context === 'grid' || context === 'viewer' ? 'delete' : null;
    case 'Enter':
      return context === 'grid' ? 'open' : null;
    case 'ArrowLeft':
      return context === 'grid' || context === 'viewer' ? 'prev' : null;
    case 'ArrowRight':
      return context === 'grid' || context === 'viewer' ? 'next' : null;
    case 'ArrowUp':
      return context === 'grid' ? 'up' : null;
    case 'ArrowDown':
      return context === 'grid' ? 'down' : null;
    case 'Home':
      return context === 'grid' ? 'first' : null;
    case 'End':
      return context === 'grid' ? 'last' : null;
    case 'z':
    case 'Z':
      return context === 'viewer' ? 'zoom' : null;
    case '+':
    case '=':
      return context === 'viewer' ? 'zoomIn' : null;
    case '-':
    case '−':
      return context === 'viewer' ? 'zoomOut' : null;
    case 'r':
    case 'R':
      if (context !== 'grid' && context !== 'viewer') return null;
      // Shift+R adds the focused image to the composer's references (plain R retries a failed job).
      return input.shiftKey ? 'addReference' : 'retry';
    // Working from the focused image (iterate/iterate.ts names them); Shift+U upscales ×4.
    case 'i':
    case 'I':
      // Shift+I shows or hides the viewer's details (plain I is Use as input).
      if (input.shiftKey && context === 'viewer') return 'details';
      return context === 'grid' || context === 'viewer' ? 'useAsInput' : null;
    case 'e':
    case 'E':
      return context === 'grid' || context === 'viewer' ? 'edit' : null;
    case 'v':
    case 'V':
      return context === 'grid' || context === 'viewer' ? 'variations' : null;
    case 'u':
    case 'U':
      return context === 'grid' || context === 'viewer' ? 'upscale' : null;
    default:
      return null;
  }
}

/** The rating a digit key sets (0 clears it), or null for any other key. */
export function ratingOfKey(key: string): number | null {
  return key.length === 1 && key >= '0' && key <= '5' ? Number(key) : null;
}

/** The grid index a navigation command moves to, clamped to the list. */
export function moveIndex(command: Command, index: number, columns: number, length: number): number {
  if (length === 0) return -1;
  const clamp = (i: number) => Math.max(0, Math.min(length - 1, i));
  switch (command) {
    case 'prev':
      return clamp(index - 1);
    case 'next':
      return clamp(index + 1);
    case 'up':
      return clamp(index - columns);
    case 'down':
      return clamp(index + columns);
    case 'first':
      return 0;
    case 'last':
      return length - 1;
    default:
      return clamp(index);
  }
}

export function isTextField(target: EventTarget | null): boolean {
  if (target === null || typeof (target as { tagName?: unknown }).tagName !== 'string') return false;
  const element = target as unknown as { tagName: string; isContentEditable?: boolean; type?: string };
  if (element.isContentEditable === true) return true;
  if (element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return true;
  if (element.tagName !== 'INPUT') return false;
  return !['checkbox', 'radio', 'button', 'submit', 'range', 'color'].includes(element.type ?? 'text');
}
