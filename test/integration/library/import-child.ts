/**
 * Child process for the killed-import test: opens an engine on DATA_DIR, imports SOURCE_DIR, prints each progress
 * event as a line of JSON and keeps going until the test kills it with SIGKILL.
 */
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';

const dataDir = process.env['DATA_DIR']!;
const engine = await createEngine({ dataDir, keyring: await createFileKeyring(dataDir) });
engine.events.on('library.importProgress', (event) => process.stdout.write(`${JSON.stringify(event)}\n`));
const { import: started } = await engine.handlers['library.import']({
  paths: [process.env['SOURCE_DIR']!],
  mode: 'link',
  watch: false,
});
process.stdout.write(`${JSON.stringify({ started: started.id })}\n`);
setInterval(() => undefined, 1_000);
