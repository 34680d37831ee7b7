/**
 * `npm run serve`: the engine on 127.0.0.1 over HTTP + SSE with a token, serving the built renderer. The desktop
 * app's library is the default data dir; provider keys live in an AES-GCM key file (no OS keychain here).
 */
import { createEngine } from './engine/create-engine.js';
import { createFileKeyring } from './engine/file-keyring.js';
import { main } from './serve/run.js';

await main(process.argv.slice(2), {
  createEngine,
  createKeyring: createFileKeyring,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
