import { memo, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useApp } from '../store/context';
import type { Toast } from '../store/types';

const LIFETIME_MS = { info: 7_000, error: 12_000 } as const;
/** A toast that offers an action (Undo, Show) stays long enough to reach for it. */
const ACTION_LIFETIME_MS = 15_000;

const ToastItem = memo(function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useApp((s) => s.dismissToast);
  useEffect(() => {
    const lifetime = toast.action === undefined ? LIFETIME_MS[toast.kind] : ACTION_LIFETIME_MS;
    const timer = window.setTimeout(() => dismiss(toast.id), lifetime);
    return () => window.clearTimeout(timer);
  }, [dismiss, toast.id, toast.kind, toast.action]);
  return (
    <div className={`toast ${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span>{toast.message}</span>
      {toast.action === undefined ? null : (
        <button
          type="button"
          className="btn small"
          onClick={() => {
            toast.action!.run();
            dismiss(toast.id);
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
});

/** The open modal dialog while the viewer or a panel is up: it sits above the page and makes the rest inert. */
function useDialogHost(): HTMLElement | null {
  const covered = useApp((s) => s.viewerId !== null || s.panel !== 'none');
  const [host, setHost] = useState<HTMLElement | null>(null);
  // A passive effect: it runs after the dialog's own effect has opened it.
  useEffect(() => {
    const open = document.querySelectorAll<HTMLDialogElement>('dialog[open]');
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the host is read from the DOM once the dialog is open
    setHost(covered ? (open[open.length - 1] ?? null) : null);
  }, [covered]);
  return host;
}

export function Toasts() {
  const toasts = useApp((s) => s.toasts);
  const host = useDialogHost();
  const list = (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
  // Inside the dialog a toast (and its action) can be seen and used; outside it would sit under the backdrop.
  return host === null ? list : createPortal(list, host);
}
