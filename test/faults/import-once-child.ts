/**
 * Child process for the unreadable-folder test: opens an engine on DATA_DIR (as whichever user it was started as),
 * imports SOURCE_DIR, prints the finished import's summary as one line of JSON and exits.
 */
import { createEngine } from '../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../electron/engine/file-keyring.js';

const dataDir = process.env['DATA_DIR']!;
const engine = await createEngine(
  {
    dataDir,
    keyring: await createFileKeyring(dataDir),
  },
  {
    housekeepingDelayMs: 60_000,
    maintenanceIntervalMs: 0,
  },
);
const finished = new Promise<void>((resolve) => {
  engine.events.on('library.importProgress', (event) => {
    if (event.status !== 'running') resolve();
  });
});
const { import: started } = await engine.handlers['library.import']({
  paths: [process.env['SOURCE_DIR']!],
  mode: 'link',
  watch: false,
});
await finished;
const summary = (await engine.handlers['library.imports']({})).items.find((i) => i.id === started.id);
process.stdout.write(`${JSON.stringify(summary)}\n`);
await engine.close({ graceMs: 0 });
