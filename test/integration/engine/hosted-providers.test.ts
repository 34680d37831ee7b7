import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../../shared/contract.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { readAtelierChunk } from '../../../electron/media/png/atelier-chunk.js';
import { sniffImage } from '../../../electron/providers/http/image.js';
import { startFakeFal } from '../../fakes/fal.js';
import { startFakeReplicate } from '../../fakes/replicate.js';
import { startFakeRunPod } from '../../fakes/runpod.js';
import { startFakeStability } from '../../fakes/stability.js';
import type { HttpFake } from '../../fakes/server.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const KEY = 'hosted-engine-key-0123456789abcdef';
const prompt = 'a lighthouse at dusk';

interface Case {
  kind: string;
  start(): Promise<HttpFake & { endpoint?: string }>;
  request: Partial<GenerateRequest>;
  settings?: Record<string, unknown>;
}

/** Each hosted kind Atelier ships, run end to end through the engine against its loopback fake. */
const CASES: Case[] = [
  { kind: 'fal', start: () => startFakeFal({ apiKey: KEY, echoKey: true }), request: {} },
  { kind: 'replicate', start: () => startFakeReplicate({ apiKey: KEY, echoKey: true }), request: {} },
  { kind: 'stability', start: () => startFakeStability({ apiKey: KEY, echoKey: true }), request: { model: 'core' } },
  {
    kind: 'runpod',
    start: () => startFakeRunPod({ apiKey: KEY, echoKey: true }),
    request: { width: 512, height: 512 },
    settings: { model: 'sd_xl_base_1.0.safetensors' },
  },
];

let h: Harness | undefined;
let fake: HttpFake | undefined;
afterEach(async () => {
  await h?.cleanup();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

describe('hosted providers through the engine', () => {
  for (const c of CASES) {
    it(`runs a job on ${c.kind} and stores its PNG with the settings embedded, the key nowhere`, async () => {
      const started = await c.start();
      fake = started;
      h = await startHarness({ providers: defaultProviders() });
      const baseUrl = started.endpoint ?? started.url;
      await h.engine.handlers['settings.update']({
        providers: { [c.kind]: { apiKey: KEY, baseUrl, ...c.settings } },
      });
      const { job } = await h.engine.handlers['jobs.submit']({
        provider: c.kind,
        prompt,
        width: 1024,
        height: 1024,
        count: 1,
        ...c.request,
      });
      const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
      expect(done.errorDetail?.message ?? 'succeeded').toBe('succeeded');
      const png = readFileSync(h.engine.resolveMedia('image', done.images[0]!.id)!.path);
      expect(sniffImage(png)).toMatchObject({ mime: 'image/png' });
      expect(readAtelierChunk(png)).toMatchObject({ provider: c.kind, request: { prompt } });
      // The job's whole record, trace included, never holds the key, though every fake echoes it.
      expect(JSON.stringify(done)).not.toContain(KEY);
      // Accepted work is collected by id after a crash: the id is in the trace's accepted line or the job is sync.
      expect(done.events.some((e) => e.kind === 'accepted')).toBe(true);
    });
  }
});
