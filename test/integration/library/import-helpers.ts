import type { Engine } from '../../../electron/engine/types.js';
import { waitFor } from '../engine/harness.js';

/** The import once it is no longer running (completed, paused, cancelled or failed). */
export async function importDone(engine: Engine, id: string) {
  return waitFor(async () => {
    const { items } = await engine.handlers['library.imports']({});
    const found = items.find((i) => i.id === id);
    return found !== undefined && found.status !== 'running' ? found : undefined;
  }, 20_000);
}

/** Imports one folder (linked, not watched) and waits until it has ended. */
export async function importFolder(engine: Engine, path: string) {
  const { import: started } = await engine.handlers['library.import']({ paths: [path], mode: 'link', watch: false });
  return importDone(engine, started.id);
}
