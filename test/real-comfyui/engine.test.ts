import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOPPING_STAGE } from '../../electron/providers/comfyui/cancel.js';
import { defaultProviders } from '../../electron/engine/default-providers.js';
import type { JobProgressEvent } from '../../shared/contract.js';
import { type Harness, startHarness, waitFor, waitForStatus } from '../integration/engine/harness.js';
import { KIT_CHECKPOINT, txt2img } from './contract/graphs.js';
import { Listener, call } from './contract/wire.js';
import { comfy, serverHistory, serverQueue } from './helpers.js';

/**
 * Atelier's engine (queue, worker, previews, cancel) with its ComfyUI provider against the real server, as the app
 * runs a job: submit, watch progress events, cancel; the server's own queue and history checked afterwards.
 */
let h: Harness;
const base = {
  provider: 'comfyui',
  prompt: 'a lighthouse on a cliff',
  width: 64,
  height: 64,
  count: 1,
  steps: 2,
} as const;

beforeAll(async () => {
  h = await startHarness({ providers: defaultProviders() });
  await h.engine.handlers['settings.update']({
    providers: { comfyui: { enabled: true, baseUrl: comfy().url, model: KIT_CHECKPOINT, timeoutMs: 170_000 } },
  });
});
afterAll(async () => {
  await h?.cleanup();
});

const progressOf = (id: string) =>
  h.events
    .filter((e) => e.name === 'jobs.progress' && (e.payload as JobProgressEvent).id === id)
    .map((e) => e.payload as JobProgressEvent);
const promptIdOf = async (id: string) => {
  const job = await h.engine.handlers['jobs.get']({ id });
  return String(job.events.find((e) => e.kind === 'request')?.data?.promptId ?? '');
};

/** Occupies the server with a long job of another client, so the next prompt waits in its queue. */
async function blocker(): Promise<{ promptId: string; listener: Listener }> {
  const listener = await new Listener(comfy().url, randomUUID().replace(/-/g, '')).open();
  const promptId = randomUUID();
  await call(comfy().url, 'POST', '/prompt', {
    json: {
      prompt: txt2img({ prompt: `a blocking job ${promptId}`, width: 256, height: 256, steps: 20 }),
      client_id: listener.clientId,
      prompt_id: promptId,
    },
  });
  await listener.until((m) => 'text' in m && m.text.type === 'progress' && m.text.data.prompt_id === promptId);
  return { promptId, listener };
}

describe('a job through the engine', () => {
  it('succeeds with progress and previews; a preview is served scaled to the job’s size', async () => {
    const { job } = await h.engine.handlers['jobs.submit']({ ...base, seed: 201, partialImages: 2 });
    // The preview file lives only while the job runs: read it as soon as one is announced.
    const previewId = await waitFor(
      () => progressOf(job.id).find((p) => p.previewImageId !== undefined)?.previewImageId,
      120_000,
    );
    const file = h.engine.resolveMedia('preview', previewId);
    const size =
      file === null
        ? undefined
        : await sharp(file.path)
            .metadata()
            .then((m) => [m.width, m.height])
            .catch(() => undefined);
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed'], 120_000);
    expect(done.errorDetail ?? null).toBeNull();
    expect(progressOf(job.id).some((p) => p.stage === 'sampling' && p.steps === 2)).toBe(true);
    // Served while the job ran (a 512×512 JPEG from ComfyUI, shown at the 64×64 output's size), unless it ended first.
    if (size !== undefined) expect(size).toEqual([64, 64]);
    expect(done.images.map((i) => [i.width, i.height])).toEqual([[64, 64]]);
  });

  it('cancel while running: "stopping after this step" until the server confirms, then cancelled with nothing left running', async () => {
    const { job } = await h.engine.handlers['jobs.submit']({
      ...base,
      prompt: 'a long walk',
      width: 256,
      height: 256,
      steps: 20,
      seed: 202,
    });
    await waitFor(() => progressOf(job.id).some((p) => p.stage === 'sampling'), 120_000);
    await h.engine.handlers['jobs.cancel']({ id: job.id });
    const promptId = await promptIdOf(job.id);
    // Until the server stops it, the job is running and says so.
    const stopping = await waitFor(async () => {
      const now = await h.engine.handlers['jobs.get']({ id: job.id });
      return now.status === 'running' && now.progress?.stage === STOPPING_STAGE
        ? now
        : now.status === 'cancelled'
          ? 'ended first'
          : undefined;
    }, 60_000);
    expect(stopping).not.toBe('ended first');
    const cancelled = await waitForStatus(h.engine, job.id, ['cancelled', 'failed', 'succeeded'], 120_000);
    const queue = await serverQueue(comfy().url);
    expect(cancelled.status).toBe('cancelled');
    expect([...queue.running, ...queue.pending]).not.toContain(promptId);
    const history = await serverHistory(comfy().url, promptId);
    expect(history?.status.messages.map((m) => m[0])).toContain('execution_interrupted');
  });

  it('cancel while queued on the server: removed from its queue, never run, no history', async () => {
    const block = await blocker();
    try {
      const { job } = await h.engine.handlers['jobs.submit']({ ...base, prompt: 'a queued job', seed: 203 });
      await waitFor(() => progressOf(job.id).some((p) => p.stage === 'queued'), 120_000);
      const promptId = await promptIdOf(job.id);
      expect((await serverQueue(comfy().url)).pending).toContain(promptId);
      await h.engine.handlers['jobs.cancel']({ id: job.id });
      const cancelled = await waitForStatus(h.engine, job.id, ['cancelled', 'failed', 'succeeded'], 60_000);
      expect(cancelled.status).toBe('cancelled');
      const queue = await serverQueue(comfy().url);
      expect([...queue.running, ...queue.pending]).not.toContain(promptId);
      expect(await serverHistory(comfy().url, promptId)).toBeUndefined();
    } finally {
      await call(comfy().url, 'POST', '/interrupt', { json: { prompt_id: block.promptId } });
      await block.listener.ended(block.promptId);
      await block.listener.close();
    }
  });
});
