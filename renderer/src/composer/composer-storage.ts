import type { AppStore } from '../store/store';
import { restoredDraft, type ComposerDraft, type PendingSubmit } from './composer';

const KEY = 'atelier.composer.v1';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The draft and any unfinished submit survive a reload: resubmitting after a reload mid-submit reuses the same
 * idempotency key, so the request is never queued twice.
 */
export function restoreComposer(store: AppStore, storage: StorageLike): void {
  try {
    const raw = storage.getItem(KEY);
    if (raw === null) return;
    const saved = JSON.parse(raw) as { draft?: Partial<ComposerDraft>; pendingSubmit?: PendingSubmit | null };
    const pendingSubmit = saved.pendingSubmit ?? null;
    const draft = { ...store.getState().draft, ...saved.draft };
    // A submit cut short by the reload resends the same request (same key); otherwise a reused seed is not kept fixed.
    store.setState({ draft: pendingSubmit === null ? restoredDraft(draft) : draft, pendingSubmit });
  } catch {
    // A corrupt saved draft is not worth an error: start from the defaults.
  }
}

export function persistComposer(store: AppStore, storage: StorageLike): () => void {
  let last: unknown = null;
  let lastPending: unknown = null;
  return store.subscribe((state) => {
    if (state.draft === last && state.pendingSubmit === lastPending) return;
    last = state.draft;
    lastPending = state.pendingSubmit;
    try {
      storage.setItem(KEY, JSON.stringify({ draft: state.draft, pendingSubmit: state.pendingSubmit }));
    } catch {
      // Storage full or disabled: the draft just will not survive a reload.
    }
  });
}
