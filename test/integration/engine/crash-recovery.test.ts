import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';
import type { Engine } from '../../../electron/engine/types.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../fakes/index.js';
import { waitFor, waitForStatus } from './harness.js';

const child = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

describe('a killed engine', () => {
  let dataDir: string;
  let fake: FakeOpenAI | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close({ graceMs: 0 });
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('restarts without re-sending paid work: the running job is interrupted, the queued one resumes', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'atelier-crash-'));
    fake = await startFakeOpenAI({ apiKey: 'sk-test-crash' });
    fake.setScenario([{ kind: 'hang' }, { kind: 'success' }]);
    const proc = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, DATA_DIR: dataDir, OPENAI_URL: fake.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const ids = await waitFor(
      () => (out.includes('\n') ? (JSON.parse(out.split('\n')[0]!) as { first: string; second: string }) : undefined),
      30_000,
    );
    await waitFor(() => fake!.generationRequests().length === 1, 15_000);
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;

    engine = await createEngine(
      {
        dataDir,
        keyring: await createFileKeyring(dataDir),
        providerDefaults: { openai: { baseUrl: fake.url } },
      },
      {
        orphanGraceMs: 0,
        maintenanceIntervalMs: 0,
      },
    );
    const first = await engine.handlers['jobs.get']({ id: ids.first });
    expect(first.status).toBe('interrupted');
    expect(first.errorDetail).toMatchObject({ code: 'interrupted', retryable: false });
    expect(first.errorDetail?.message).toMatch(/check/i);
    const second = await waitForStatus(engine, ids.second, ['succeeded', 'failed']);
    expect(second.errorDetail ?? null).toBeNull();
    expect(second.status).toBe('succeeded');
    const prompts = fake.generationRequests().map((r) => (JSON.parse(r.body) as { prompt: string }).prompt);
    expect(prompts).toEqual(['paid work that must never be sent twice', 'queued behind it']);
  }, 60_000);
});
