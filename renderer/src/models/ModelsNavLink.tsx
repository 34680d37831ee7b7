import { useEffect } from 'react';
import { useApp } from '../store/context';

/** How long after start-up the library is fetched, once the page is idle: the grid's first pages go first. */
const PREFETCH_AFTER_MS = 2_000;

/** The library column's way to the Models screen (the top bar's button shows only where the toolbar has room for it). */
export function ModelsNavLink() {
  const open = useApp((s) => s.modelsOpen);
  const openModels = useApp((s) => s.openModels);
  const closeModels = useApp((s) => s.closeModels);
  const ensure = useApp((s) => s.ensureModels);
  // Fetched in the background once the page is quiet, so M opens on a listed library and the composer knows its LoRAs.
  useEffect(() => {
    let idle: number | null = null;
    const timer = window.setTimeout(() => {
      idle = window.requestIdleCallback(() => void ensure(), { timeout: 5_000 });
    }, PREFETCH_AFTER_MS);
    return () => {
      window.clearTimeout(timer);
      if (idle !== null) window.cancelIdleCallback(idle);
    };
  }, [ensure]);
  return (
    <section className="nav-section models-nav" aria-label="Models">
      <button
        type="button"
        className={open ? 'btn small ghost models-nav-link active' : 'btn small ghost models-nav-link'}
        aria-pressed={open}
        title="Checkpoints, LoRAs, embeddings and VAEs, through your own images (M)"
        onClick={() => (open ? closeModels() : openModels())}
      >
        Models and LoRAs <kbd aria-hidden="true">M</kbd>
      </button>
    </section>
  );
}
