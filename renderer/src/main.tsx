import './zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserApi } from './api';
import { App } from './components/App';
import { restoreComposer, persistComposer } from './lib/composer-storage';
import { AppProvider } from './store/context';
import { createAppStore } from './store/store';
import { wireEvents } from './store/wire-events';
import './styles/app.css';

const api = createBrowserApi();
const store = createAppStore({ api, makeKey: () => crypto.randomUUID(), now: () => Date.now() });
restoreComposer(store, window.sessionStorage);
persistComposer(store, window.sessionStorage);
// Wired once, before the first render: no event can slip past while React mounts.
wireEvents(store, api);

const root = document.getElementById('root');
if (root === null) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <AppProvider store={store} api={api}>
      <App />
    </AppProvider>
  </StrictMode>,
);
