import { mark } from './app/perf-marks';
import { loadValidation } from './store/composer-slice';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserApi } from './api';
import { App } from './app/App';
import { restoreComposer, persistComposer } from './composer/composer-storage';
import { AppProvider } from './store/context';
import { createAppStore } from './store/store';
import { wireEvents } from './store/wire-events';
import './styles/app.css';
import './library/import/imports.css';
import './library/export/export.css';
import './curation/curation.css';
import './live/live.css';

mark('boot');
const api = createBrowserApi();
const store = createAppStore({ api, makeKey: () => crypto.randomUUID(), now: () => Date.now() });
restoreComposer(store, window.sessionStorage);
persistComposer(store, window.sessionStorage);
// Wired once, before the first render: no event can slip past while React mounts.
wireEvents(store, api);
// Once the first page is in, load the submit validator while the app is idle, so Generate never waits for it.
const unsubscribe = store.subscribe((state) => {
  if (state.historyState === 'loading') return;
  unsubscribe();
  const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 200));
  idle(() => void loadValidation());
});

const root = document.getElementById('root');
if (root === null) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <AppProvider store={store} api={api}>
      <App />
    </AppProvider>
  </StrictMode>,
);
