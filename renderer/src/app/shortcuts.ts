/**
 * The keyboard cheat sheet's one list: every shortcut, grouped as a person looks for them. Each entry names the
 * KeyboardEvent keys it covers ("Shift+R", "Ctrl+Z"; Ctrl stands for Cmd on a Mac); a unit test holds it to what
 * common/keyboard.ts and app/panels.ts bind, so a key added there without a line here fails.
 */

export interface Shortcut {
  /** The keys as KeyboardEvent.key, with Shift+ or Ctrl+ before when held. */
  keys: readonly string[];
  /** How the keys read on the sheet, when not simply each key. */
  show?: string;
  does: string;
}

export interface ShortcutGroup {
  title: 'Gallery' | 'Viewer' | 'Composer' | 'Curation' | 'Sweep grid';
  items: readonly Shortcut[];
}

const digits = ['0', '1', '2', '3', '4', '5'];

export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    title: 'Gallery',
    items: [
      { keys: ['?'], does: 'This list of shortcuts' },
      { keys: ['/'], does: 'Search' },
      { keys: ['n', 'N'], show: 'N', does: 'New prompt (opens the composer)' },
      { keys: ['q', 'Q'], show: 'Q', does: 'Show or hide the queue' },
      { keys: ['m', 'M'], show: 'M', does: 'Models and LoRAs' },
      { keys: ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'], show: '← → ↑ ↓', does: 'Move between pictures' },
      { keys: ['Home', 'End'], show: 'Home End', does: 'First or last picture' },
      { keys: ['Enter'], does: 'Open the picture in the viewer' },
      { keys: ['Ctrl+a', 'Ctrl+A'], show: 'Ctrl+A', does: 'Select all' },
      { keys: ['Ctrl+=', 'Ctrl++', 'Ctrl+-', 'Ctrl+_'], show: 'Ctrl++ Ctrl+−', does: 'Larger or smaller thumbnails' },
      { keys: ['Ctrl+i', 'Ctrl+I'], show: 'Ctrl+I', does: 'Import images' },
      { keys: ['Ctrl+z', 'Ctrl+Z'], show: 'Ctrl+Z', does: 'Undo the last change' },
      { keys: ['Tab'], does: 'Hide or show all panels (on a picture)' },
      { keys: ['c', 'C'], show: 'C', does: 'Hide or show the composer' },
      { keys: ['b', 'B'], show: 'B', does: 'Hide or show the boards column' },
      { keys: ['Escape'], show: 'Esc', does: 'Close what is open' },
    ],
  },
  {
    title: 'Viewer',
    items: [
      { keys: ['ArrowLeft', 'ArrowRight'], show: '← →', does: 'Previous or next image' },
      { keys: ['z', 'Z'], show: 'Z', does: 'Zoom to the pixels and back' },
      { keys: ['+', '=', '-', '−'], show: '+ −', does: 'Zoom in or out' },
      { keys: ['Ctrl+0', 'Ctrl+1'], show: 'Ctrl+0 Ctrl+1', does: 'Fit, or actual size' },
      { keys: ['Shift+I'], does: 'Show or hide the details' },
      { keys: ['Escape'], show: 'Esc', does: 'Back to the gallery' },
    ],
  },
  {
    title: 'Composer',
    items: [
      { keys: ['Ctrl+Enter'], does: 'Generate' },
      { keys: ['ArrowUp', 'ArrowDown'], show: '↑ ↓', does: 'Past prompts (at the start or end of the prompt)' },
      { keys: ['Escape'], show: 'Esc', does: 'Close the composer drawer' },
    ],
  },
  {
    // The grid's own keys (sweeps/sweep-keys.ts; a unit test holds this group to them).
    title: 'Sweep grid',
    items: [
      {
        keys: ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'],
        show: '← → ↑ ↓',
        does: 'Move between cells',
      },
      { keys: ['Enter'], does: 'Open the cell in the viewer' },
      { keys: ['+', '=', '-', '_'], show: '+ −', does: 'Larger or smaller cells' },
      { keys: ['PageUp', 'PageDown'], show: 'PgUp PgDn', does: 'Previous or next page (Z)' },
      {
        keys: ['0', '1', '2', '3', '4', '5', 'x', 'X', 'Delete', 'Backspace'],
        show: '1–5 X Del',
        does: 'Rate, reject or trash the cells',
      },
      { keys: ['c', 'C'], show: 'C', does: 'Compare the selected cells' },
      { keys: ['r', 'R'], show: 'R', does: 'Run the cells again' },
    ],
  },
  {
    title: 'Curation',
    items: [
      { keys: digits, show: '1–5 0', does: 'Rate the image (0 clears)' },
      { keys: ['f', 'F'], show: 'F', does: 'Favorite' },
      { keys: ['x', 'X'], show: 'X', does: 'Reject (hidden from the default view)' },
      { keys: ['Delete', 'Backspace'], show: 'Delete', does: 'Move to the trash' },
      { keys: ['r', 'R'], show: 'R', does: 'Retry a failed job' },
      { keys: ['Shift+R'], does: 'Add to the composer’s references' },
      { keys: ['i', 'I'], show: 'I', does: 'Use as input' },
      { keys: ['e', 'E'], show: 'E', does: 'Edit (paint a mask)' },
      { keys: ['v', 'V'], show: 'V', does: 'Variations' },
      { keys: ['u', 'U', 'Shift+U'], show: 'U  Shift+U', does: 'Upscale ×2, ×4' },
    ],
  },
];

/** The keys of an entry as they read on the sheet. */
export function shownKeys(shortcut: Shortcut): string[] {
  return (shortcut.show ?? shortcut.keys.join(' ')).split(/\s+/).filter((k) => k !== '');
}
