/**
 * Child process for the crash test: opens an engine on DATA_DIR with OpenAI pointed at a fake, submits two
 * jobs, reports their ids on stdout and then waits to be killed.
 */
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';

const dataDir = process.env['DATA_DIR']!;
const baseUrl = process.env['OPENAI_URL']!;
const engine = await createEngine({
  dataDir,
  keyring: await createFileKeyring(dataDir),
  providerDefaults: { openai: { baseUrl } },
});
await engine.handlers['settings.update']({
  concurrency: { global: 1 },
  providers: { openai: { apiKey: 'sk-test-crash', concurrency: 1, baseUrl } },
});
const request = { provider: 'openai', model: 'gpt-image-1', width: 1024, height: 1024, count: 1 } as const;
const first = await engine.handlers['jobs.submit']({ ...request, prompt: 'paid work that must never be sent twice' });
const second = await engine.handlers['jobs.submit']({ ...request, prompt: 'queued behind it' });
process.stdout.write(`${JSON.stringify({ first: first.job.id, second: second.job.id })}\n`);
setInterval(() => undefined, 1_000);
