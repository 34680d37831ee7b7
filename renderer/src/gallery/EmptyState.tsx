import { useState } from 'react';
import { useApp } from '../store/context';
import { FindEngines } from '../settings/FindEngines';

/** What to do next, said plainly: never a blank grid. */
export function EmptyState() {
  const filters = useApp((s) => s.filters);
  const setFilters = useApp((s) => s.setFilters);
  const failed = useApp((s) => s.historyState === 'error');
  const reload = useApp((s) => s.loadFirstPage);
  const openImport = useApp((s) => s.openImportDialog);
  const openSettingsAt = useApp((s) => s.openSettingsAt);
  const chooseProvider = useApp((s) => s.chooseProvider);
  const setComposerOpen = useApp((s) => s.setComposerOpen);
  const [finding, setFinding] = useState(false);
  // The composer with the built-in chosen and the prompt box focused (a narrow window slides the drawer out first).
  const tryPlaceholder = () => {
    chooseProvider('builtin');
    setComposerOpen(true);
    requestAnimationFrame(() => document.querySelector<HTMLTextAreaElement>('textarea.prompt')?.focus());
  };
  const lost = useApp((s) => (s.stats?.recovery.state === 'needed' ? s.stats.recovery.unknownFiles : 0));
  const unreadable = useApp((s) => s.searchError !== null);
  const filtered =
    filters.search.trim() !== '' || filters.status.length > 0 || filters.provider !== null || filters.source !== null;

  if (failed) {
    return (
      <div className="empty" role="status">
        <h2>History could not be loaded</h2>
        <p>Atelier did not answer. Your images are safe on disk.</p>
        <button type="button" className="btn" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    );
  }
  // The note under the search box says why: "try another spelling" here would contradict it.
  if (unreadable) return null;
  if (filtered) {
    return (
      <div className="empty" role="status">
        <h2>Nothing matches{filters.search.trim() === '' ? ' these filters' : ` “${filters.search.trim()}”`}</h2>
        <p>Try fewer words, another spelling, or clear the filters.</p>
        <button
          type="button"
          className="btn"
          onClick={() => setFilters({ search: '', status: [], provider: null, source: null })}
        >
          Clear search and filters
        </button>
      </div>
    );
  }
  if (filters.view === 'trash') {
    return (
      <div className="empty" role="status">
        <h2>Trash is empty</h2>
        <p>
          Deleted jobs, and jobs over your retention limits, wait here. Favorites stay until you empty the trash
          yourself; others go after the days set in Settings.
        </p>
      </div>
    );
  }
  if (filters.view === 'favorites') {
    return (
      <div className="empty" role="status">
        <h2>No favorites yet</h2>
        <p>Star an image (or press F on it) to keep it here. Favorites are never pruned.</p>
      </div>
    );
  }
  if (lost > 0) {
    return (
      <div className="empty" role="status">
        <h2>Your history is empty, but your images are not</h2>
        <p>
          The library folder holds {lost === 1 ? '1 image' : `${lost} images`} the history does not list. Rebuild the
          history from them with the button above.
        </p>
      </div>
    );
  }
  return (
    <div className="empty" role="status">
      <h2>Your gallery is empty</h2>
      <p>Make your first image with an engine on this computer, a hosted service, or the placeholder generator.</p>
      <div className="empty-actions">
        <button type="button" className="btn primary" onClick={() => setFinding(true)}>
          Connect an engine on this computer
        </button>
        <button type="button" className="btn" onClick={() => openSettingsAt('hosted')}>
          Add a hosted key…
        </button>
        <button type="button" className="btn" onClick={tryPlaceholder}>
          Try the placeholder generator
        </button>
      </div>
      {finding ? <FindEngines autoStart /> : null}
      <p className="muted small">
        The placeholder generator draws simple scenes without AI, offline: for trying Atelier out.
      </p>
      <p>
        Already have images from AUTOMATIC1111, ComfyUI or another tool?{' '}
        <button type="button" className="link" onClick={() => openImport()}>
          Import your existing images…
        </button>{' '}
        They come in with their settings; the files stay where they are.
      </p>
    </div>
  );
}
