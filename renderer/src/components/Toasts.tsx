import { memo, useEffect } from 'react';
import { useApp } from '../store/context';
import type { Toast } from '../store/types';

const LIFETIME_MS = { info: 7_000, error: 12_000 } as const;

const ToastItem = memo(function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useApp((s) => s.dismissToast);
  useEffect(() => {
    const timer = window.setTimeout(() => dismiss(toast.id), LIFETIME_MS[toast.kind]);
    return () => window.clearTimeout(timer);
  }, [dismiss, toast.id, toast.kind]);
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

export function Toasts() {
  const toasts = useApp((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
