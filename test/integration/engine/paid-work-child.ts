/**
 * Child process for the paid-work test: opens an engine on DATA_DIR with enough Black Forest Labs servers (keys) for
 * COUNT jobs at once, pointed at a fake, submits COUNT jobs to any of them, reports their ids on stdout and then
 * waits to be killed.
 */
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';

const dataDir = process.env['DATA_DIR']!;
const baseUrl = process.env['BFL_URL']!;
const apiKey = process.env['BFL_KEY']!;
const count = Number(process.env['COUNT']);
const engine = await createEngine({ dataDir, keyring: await createFileKeyring(dataDir) });
// BFL runs at most 24 tasks per key: enough servers (keys) that every job is in flight at once.
const servers = Math.max(2, Math.ceil(count / 24));
const each = Math.ceil(count / servers);
await engine.handlers['settings.update']({
  concurrency: { global: Math.min(64, count) },
  providers: { bfl: { apiKey, baseUrl, concurrency: each } },
});
const added: string[] = [];
for (let i = 1; i < servers; i += 1) {
  const { provider } = await engine.handlers['providers.add']({ kind: 'bfl', name: `Key ${i + 1}`, baseUrl });
  await engine.handlers['settings.update']({
    providers: { [provider.id]: { apiKey, concurrency: each, enabled: true } },
  });
  added.push(provider.id);
}
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
process.stdout.write(`${JSON.stringify({ ids, servers: ['bfl', ...added] })}\n`);
setInterval(() => undefined, 1_000);
