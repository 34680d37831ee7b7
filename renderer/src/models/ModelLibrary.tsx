import { useMemo } from 'react';
import { formatCount } from '../common/format';
import { useApp } from '../store/context';
import { ModelFilters } from './ModelFilters';
import { ModelGrid } from './ModelGrid';
import { filterModels, kindCounts } from './model-view';
import './models.css';

/** The Models screen over the gallery: every model and LoRA the servers list or the images name, through the person's own pictures. */
export function ModelLibrary() {
  const library = useApp((s) => s.modelLibrary);
  const state = useApp((s) => s.modelsState);
  const error = useApp((s) => s.modelsError);
  const filter = useApp((s) => s.modelFilter);
  const close = useApp((s) => s.closeModels);
  const refresh = useApp((s) => s.refreshModels);
  const load = useApp((s) => s.loadModels);
  const items = useMemo(() => filterModels(library?.items ?? [], filter), [library, filter]);
  // The tabs count what the search and base model leave, each kind apart.
  const counts = useMemo(() => kindCounts(library?.items ?? [], { ...filter, kind: 'all' }), [library, filter]);
  const total = library?.items.length ?? 0;
  return (
    <section
      className="models-screen"
      aria-label="Models"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !(e.target instanceof HTMLTextAreaElement)) {
          e.stopPropagation();
          close();
        }
      }}
    >
      <header className="models-head">
        <h2>Models</h2>
        <span className="muted small" aria-live="polite">
          {library === null
            ? ''
            : items.length === total
              ? formatCount(total, 'entry', 'entries')
              : `${formatCount(items.length, 'match', 'matches')} of ${formatCount(total, 'entry', 'entries')}`}
          {library !== null && library.total > total
            ? ` (the first ${formatCount(total, 'entry', 'entries')} of ${library.total})`
            : ''}
        </span>
        <span className="models-head-end">
          <button
            type="button"
            className="btn small ghost"
            aria-busy={state === 'loading'}
            title="Ask every connected server for its models again"
            onClick={() => void refresh()}
          >
            {state === 'loading' ? 'Refreshing…' : 'Refresh'}
          </button>
          <button type="button" className="btn small" onClick={close} title="Back to the gallery (Esc)">
            Back to images
          </button>
        </span>
      </header>
      <ModelFilters counts={counts} />
      {state === 'error' && library === null ? (
        <div className="models-empty" role="alert">
          <p>The model library could not be read: {error}</p>
          <button type="button" className="btn small" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : library === null ? (
        <p className="models-empty muted">Loading models…</p>
      ) : items.length === 0 ? (
        <p className="models-empty muted">
          {total === 0
            ? 'No models yet: connect an A1111 or ComfyUI server, or import images made with them.'
            : 'Nothing matches these filters.'}
        </p>
      ) : (
        <ModelGrid items={items} />
      )}
    </section>
  );
}
