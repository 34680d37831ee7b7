import { useEffect } from 'react';
import { useApp, useAppStore } from '../store/context';
import { CompareView } from '../viewer/CompareView';
import { Composer } from '../composer/Composer';
import { BoardsList } from '../curation/BoardsList';
import { MatchesBar } from '../search/MatchesBar';
import { DropToImport } from '../library/import/DropToImport';
import { Filters } from '../search/Filters';
import { GlobalKeys } from './GlobalKeys';
import { HistoryView } from '../gallery/HistoryView';
import { ImportDialog } from '../library/import/ImportDialog';
import { ImportsPanel } from '../library/import/ImportsPanel';
import { LiveChip } from '../live/LiveChip';
import { QueueButton } from '../queue/QueueButton';
import { QueuePanel } from '../queue/QueuePanel';
import { RecoveryBanner } from './RecoveryBanner';
import { SearchBar } from '../search/SearchBar';
import { SelectionBar } from '../gallery/SelectionBar';
import { SettingsPanel } from '../settings/SettingsPanel';
import { TagsList } from '../curation/TagsList';
import { SimilarView } from '../search/SimilarView';
import { StatusBanner } from './StatusBanner';
import { LibraryUnavailable } from '../library/location/LibraryUnavailable';
import { Toasts } from './Toasts';
import { UpdateBanner } from './UpdateBanner';
import { TrashView } from '../curation/TrashView';
import { Viewer } from '../viewer/Viewer';
import { ModelLibrary } from '../models/ModelLibrary';
import { ModelsNavLink } from '../models/ModelsNavLink';
import { SweepGrid } from '../sweeps/SweepGrid';
import { SweepsList } from '../sweeps/SweepsList';
import { focusGrid } from '../gallery/grid-focus';
import { useMediaQuery } from '../common/use-media-query';
import { PanelToggles } from './PanelToggles';
import { unfoldComposerOnWork } from './composer-unfold';
import { sidebarVisible } from '../store/ui-slice';
import './layout.css';

/** Keep in step with the drawer's media query in app.css. */
const COMPOSER_DRAWER_QUERY = '(max-width: 1100px)';

function useTheme() {
  const theme = useApp((s) => s.settings?.theme ?? 'system');
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}

export function App() {
  useTheme();
  const view = useApp((s) => s.filters.view);
  const panel = useApp((s) => s.panel);
  const viewerOpen = useApp((s) => s.viewerId !== null);
  const setPanel = useApp((s) => s.setPanel);
  const importOpen = useApp((s) => s.importDialog !== null);
  const openImport = useApp((s) => s.openImportDialog);
  const composerOpen = useApp((s) => s.composerOpen);
  const queueOpen = useApp((s) => s.queueOpen);
  const modelsOpen = useApp((s) => s.modelsOpen);
  const openModels = useApp((s) => s.openModels);
  const closeModels = useApp((s) => s.closeModels);
  const setComposerOpen = useApp((s) => s.setComposerOpen);
  const composerShown = useApp((s) => s.panels.composer);
  const libraryShown = useApp(sidebarVisible);
  const store = useAppStore();
  useEffect(() => unfoldComposerOnWork(store), [store]);
  // The width at which app.css makes the composer a drawer: a closed drawer is inert (off screen, out of the tab order).
  const drawer = useMediaQuery(COMPOSER_DRAWER_QUERY);
  // An opened drawer hands the keyboard to the prompt (once it is shown: a hidden element cannot take focus).
  useEffect(() => {
    if (composerOpen) document.querySelector<HTMLTextAreaElement>('textarea.prompt')?.focus();
  }, [composerOpen]);
  return (
    <div className="app">
      {/* The first Tab stop: past the search, composer and sidebars straight to the images. */}
      <a
        className="skip-link"
        href="#history"
        onClick={(e) => {
          e.preventDefault();
          focusGrid();
        }}
      >
        Skip to images
      </a>
      <header className="topbar">
        <PanelToggles />
        <h1 className="brand">Atelier</h1>
        {/* Only in a narrow window (CSS): the composer is a drawer there, so the gallery stays first. */}
        <button
          type="button"
          className="btn ghost compose-toggle"
          aria-controls="composer-drawer"
          aria-expanded={composerOpen}
          title="Write a prompt (N)"
          onClick={() => setComposerOpen(!composerOpen)}
        >
          Compose <kbd aria-hidden="true">N</kbd>
        </button>
        <SearchBar />
        <Filters />
        <span className="topbar-end">
          <LiveChip />
          <QueueButton />
          <button
            type="button"
            className={modelsOpen ? 'btn ghost models-toggle active' : 'btn ghost models-toggle'}
            aria-pressed={modelsOpen}
            title="Models and LoRAs, through your own images (M)"
            onClick={() => (modelsOpen ? closeModels() : openModels())}
          >
            Models
          </button>
          <button
            type="button"
            className="btn ghost"
            onClick={() => openImport()}
            aria-haspopup="dialog"
            title="Import folders of images (Ctrl+I)"
          >
            Import…
          </button>
          <button type="button" className="btn ghost" onClick={() => setPanel('settings')} aria-haspopup="dialog">
            Settings
          </button>
        </span>
      </header>
      <StatusBanner />
      <RecoveryBanner />
      <UpdateBanner />
      <div className="workspace">
        {/* Folded away it stays mounted (hidden), so a half-written prompt and its settings wait for it to come back. */}
        <aside
          id="composer-drawer"
          className={composerOpen ? 'sidebar open' : 'sidebar'}
          aria-label="Compose"
          hidden={!drawer && !composerShown}
          inert={drawer && !composerOpen}
        >
          <Composer />
        </aside>
        {/* Mounted even when hidden: its lists load the boards and tags that decide whether it stands at all. */}
        <aside className="library-nav" aria-label="Library" hidden={!libraryShown}>
          <ModelsNavLink />
          <BoardsList />
          <TagsList />
          <SweepsList />
        </aside>
        <main className="content">
          <ImportsPanel />
          {view === 'trash' ? <TrashView /> : null}
          <SelectionBar />
          <MatchesBar />
          <HistoryView />
          {/* Over the gallery, which keeps its place beneath (models/models.css). */}
          {modelsOpen ? <ModelLibrary /> : null}
        </main>
        {queueOpen ? <QueuePanel /> : null}
      </div>
      <SimilarView />
      <SweepGrid />
      {viewerOpen ? <Viewer /> : null}
      <CompareView />
      {panel === 'settings' ? <SettingsPanel /> : null}
      {importOpen ? <ImportDialog /> : null}
      <DropToImport />
      <Toasts />
      <LibraryUnavailable />
      <GlobalKeys />
    </div>
  );
}
