import { useEffect, useRef } from 'react';
import { createStore, useStore } from 'zustand';
import { SHORTCUT_GROUPS, shownKeys } from './shortcuts';
import './cheat-sheet.css';

// Open or not, kept apart from the app store: only GlobalKeys opens it and only this sheet reads it.
const sheet = createStore<{ open: boolean }>(() => ({ open: false }));
export const openCheatSheet = (): void => sheet.setState({ open: true });
export const closeCheatSheet = (): void => sheet.setState({ open: false });
export const cheatSheetOpen = (): boolean => sheet.getState().open;

/** Every keyboard shortcut, grouped, on `?`; Escape, the button or a click outside closes it. */
export function CheatSheet() {
  const open = useStore(sheet, (s) => s.open);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog !== null && !dialog.open) dialog.showModal();
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className="dialog cheat-sheet"
      aria-labelledby="cheat-sheet-title"
      onCancel={(e) => {
        e.preventDefault();
        closeCheatSheet();
      }}
      // A click on the backdrop lands on the dialog itself, never on its content.
      onClick={(e) => {
        if (e.target === e.currentTarget) closeCheatSheet();
      }}
    >
      <div className="dialog-head">
        <h2 id="cheat-sheet-title">Keyboard shortcuts</h2>
        <button type="button" className="btn small" onClick={closeCheatSheet} autoFocus>
          Close
        </button>
      </div>
      <div className="cheat-sheet-groups">
        {SHORTCUT_GROUPS.map((group) => (
          <section key={group.title} aria-labelledby={`shortcuts-${group.title}`}>
            <h3 id={`shortcuts-${group.title}`}>{group.title}</h3>
            <dl>
              {group.items.map((item) => (
                <div key={item.does} className="cheat-sheet-row">
                  <dt>
                    {shownKeys(item).map((key) => (
                      <kbd key={key}>{key}</kbd>
                    ))}
                  </dt>
                  <dd>{item.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <p className="muted small">Single keys work outside text fields. Ctrl is ⌘ on a Mac.</p>
    </dialog>
  );
}
