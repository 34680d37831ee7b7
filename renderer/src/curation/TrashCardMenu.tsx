import { useEffect, useId, useRef, useState } from 'react';
import { useAppStore } from '../store/context';

/** A trashed card's "⋯" menu: Restore, and Delete permanently… behind its counted question (styled as ImageMenu's). */
export function TrashCardMenu({ jobId, label }: { jobId: string; label: string }) {
  const store = useAppStore();
  const [open, setOpen] = useState(false);
  const wrapRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useEffect(() => {
    if (!open) return;
    wrapRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: PointerEvent) => {
      if (!wrapRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);
  const run = (what: () => void) => {
    setOpen(false);
    buttonRef.current?.focus();
    what();
  };
  return (
    <div
      className="card-menu-wrap"
      ref={wrapRef}
      onKeyDown={(e) => {
        if (!open) return;
        // The menu's keys stay in the menu: Delete here must not reach the grid as well.
        e.stopPropagation();
        const items = [...(wrapRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
        const at = items.indexOf(document.activeElement as HTMLElement);
        if (e.key === 'Escape') {
          e.preventDefault();
          run(() => undefined);
        } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          items[(at + 1) % items.length]?.focus();
        } else if (e.key === 'Tab') setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="link card-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`In the trash: ${label}`}
        title="Restore, or delete permanently"
        onClick={() => setOpen((v) => !v)}
      >
        ⋯
      </button>
      {open ? (
        <ul className="card-menu" role="menu" id={menuId} aria-label="In the trash">
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => run(() => void store.getState().restoreFromTrash([jobId]))}
            >
              <span>Restore</span>
            </button>
          </li>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              aria-keyshortcuts="Delete"
              onClick={() => run(() => store.getState().askPurge([jobId]))}
            >
              <span>Delete permanently…</span>
              <kbd aria-hidden="true">Del</kbd>
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
