/**
 * Child process for the paid-work test: opens an engine on DATA_DIR with two Black Forest Labs servers pointed at a
 * fake, submits COUNT jobs to any of them, reports their ids on stdout and then waits to be killed.
 */
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';

const dataDir = process.env['DATA_DIR']!;
const baseUrl = process.env['BFL_URL']!;
const apiKey = process.env['BFL_KEY']!;
const count = Number(process.env['COUNT']);
const engine = await createEngine({ dataDir, keyring: await createFileKeyring(dataDir) });
const half = Math.ceil(count / 2);
await engine.handlers['settings.update']({
  concurrency: { global: count },
  providers: { bfl: { apiKey, baseUrl, concurrency: half } },
});
const { provider } = await engine.handlers['providers.add']({ kind: 'bfl', name: 'Second key', baseUrl });
await engine.handlers['settings.update']({
  providers: { [provider.id]: { apiKey, concurrency: half, enabled: true } },
});
const ids: string[] = [];
for (let i = 0; i < count; i += 1) {
  const { job } = await engine.handlers['jobs.submit']({
    provider: 'any:bfl',
    model: 'flux-2-pro',
    prompt: `paid work ${i}`,
    width: 1024,
    height: 1024,
    count: 1,
  });
  ids.push(job.id);
}
process.stdout.write(`${JSON.stringify({ ids, second: provider.id })}\n`);
setInterval(() => undefined, 1_000);
