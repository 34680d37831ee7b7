import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { visibleImages } from '../curation/curation';
import { ACTION_KEYS, ACTION_LABELS, ITERATE_ACTIONS, type IterateAction } from './iterate';
import { useAppStore } from '../store/context';
import { focusComposerPrompt, useActionSupport } from './ImageActions';
import './iterate.css';

/**
 * Which menu is open, outside React: a card arriving on top re-lays the grid and remounts the cards, and the menu
 * the person has open must come back open (read once on mount, so no card subscribes to anything).
 */
let openMenu: string | null = null;

/** A card's (or a strip image's) "⋯" menu: the actions for working from that one image, reasons for the disabled ones. */
export function ImageMenu({ jobId, imageId, label }: { jobId: string; imageId: string; label: string }) {
  const key = `${jobId}:${imageId}`;
  const [open, setOpenState] = useState(() => openMenu === key);
  const setOpen = useCallback(
    (next: boolean | ((was: boolean) => boolean)) =>
      setOpenState((was) => {
        const value = typeof next === 'function' ? next(was) : next;
        if (value) openMenu = key;
        else if (openMenu === key) openMenu = null;
        return value;
      }),
    [key],
  );
  const wrapRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useEffect(() => {
    if (!open) return;
    // Opened here, or brought back by a remount that dropped the focus: never taken from elsewhere.
    const active = document.activeElement;
    if (active === null || active === document.body || wrapRef.current?.contains(active) === true)
      wrapRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: PointerEvent) => {
      if (!wrapRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, setOpen]);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <div
      className="card-menu-wrap"
      ref={wrapRef}
      onKeyDown={(e) => {
        if (!open) return;
        // The menu's keys stay in the menu: arrows move through it, not through the grid.
        e.stopPropagation();
        const items = [...(wrapRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
        const at = items.indexOf(document.activeElement as HTMLElement);
        if (e.key === 'Escape') {
          e.preventDefault();
          close();
        } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
        } else if (e.key === 'Tab') {
          setOpen(false);
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="link card-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Work from this image: ${label}`}
        title="Use as input, edit, variations, upscale, add as reference"
        onClick={() => setOpen((v) => !v)}
      >
        ⋯
      </button>
      {open ? <MenuItems id={menuId} jobId={jobId} imageId={imageId} onDone={close} /> : null}
    </div>
  );
}

function MenuItems({ id, jobId, imageId, onDone }: { id: string; jobId: string; imageId: string; onDone: () => void }) {
  const store = useAppStore();
  const support = useActionSupport(jobId, imageId);
  const run = (action: IterateAction) => {
    onDone();
    if (action === 'edit') {
      // The brush lives in the viewer: open it there on this image.
      const state = store.getState();
      const job = state.jobs.byId[jobId];
      const shown = job === undefined ? [] : visibleImages(job, state.filters.view === 'trash' ? 'trash' : 'active');
      state.openViewer(
        jobId,
        Math.max(
          0,
          shown.findIndex((i) => i.id === imageId),
        ),
      );
    }
    void store
      .getState()
      .runAction(action, jobId, imageId)
      .then((done) => {
        if (done && action === 'useAsInput') focusComposerPrompt();
      });
  };
  return (
    <ul className="card-menu" role="menu" id={id} aria-label="Work from this image">
      {ITERATE_ACTIONS.map((action) => {
        const s = support[action];
        return (
          <li key={action} role="none">
            <button
              type="button"
              role="menuitem"
              aria-disabled={!s.enabled}
              aria-keyshortcuts={ACTION_KEYS[action]}
              title={s.enabled ? s.note : s.reason}
              onClick={() => {
                if (s.enabled) run(action);
              }}
            >
              <span>{ACTION_LABELS[action]}</span>
              <kbd aria-hidden="true">{ACTION_KEYS[action]}</kbd>
            </button>
            {s.enabled ? null : <span className="card-menu-reason">{s.reason}</span>}
          </li>
        );
      })}
    </ul>
  );
}
