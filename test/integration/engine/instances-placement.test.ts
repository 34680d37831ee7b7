import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import type { Engine } from '../../../electron/engine/types.js';
import { startFakeComfyUI, startFakeOpenAI, type FakeComfy, type FakeOpenAI } from '../../fakes/index.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

const promptsOf = (fake: FakeComfy): string[] =>
  fake.promptRequests().map((r) => {
    const graph = (r.json as { prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }> })
      .prompt;
    return String(Object.values(graph).find((n) => n.class_type === 'CLIPTextEncode')?.inputs['text']);
  });

const modelOf = (fake: FakeComfy, index: number): unknown => {
  const graph = (
    fake.promptRequests()[index]!.json as {
      prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    }
  ).prompt;
  return Object.values(graph).find((n) => n.class_type === 'CheckpointLoaderSimple')?.inputs['ckpt_name'];
};

async function twoComfy(engine: Engine, a: FakeComfy, b: FakeComfy): Promise<void> {
  await engine.handlers['settings.update']({
    concurrency: { global: 4 },
    providers: { comfyui: { enabled: true, baseUrl: a.url } },
  });
  await engine.handlers['providers.add']({ kind: 'comfyui', name: 'Second GPU', baseUrl: b.url });
  await engine.handlers['settings.update']({ providers: { 'comfyui-2': { enabled: true } } });
}

const CHECKPOINT = 'v1-5-pruned-emaonly.safetensors';

const submit = (engine: Engine, provider: string, prompt: string, model = CHECKPOINT) =>
  engine.handlers['jobs.submit']({ provider, prompt, width: 64, height: 64, count: 1, steps: 4, model }).then(
    (r) => r.job.id,
  );

describe('any:<kind> jobs are placed on healthy instances', () => {
  let h: Harness | undefined;
  const fakes: Array<FakeComfy | FakeOpenAI> = [];
  afterEach(async () => {
    await h?.cleanup();
    for (const fake of fakes.splice(0)) await fake.close();
    h = undefined;
  });

  it('spreads any:comfyui over two servers of different speeds, recording the instance on each job and in its trace', async () => {
    const slow = await startFakeComfyUI({ scenario: { kind: 'success', stepMs: 40 } });
    const fast = await startFakeComfyUI({ scenario: { kind: 'success', stepMs: 10 } });
    fakes.push(slow, fast);
    h = await startHarness({ providers: defaultProviders() });
    await twoComfy(h.engine, slow, fast);
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await submit(h.engine, 'any:comfyui', `tile ${i}`));
    const ranOn = new Map<string, string>();
    for (const id of ids) {
      const done = await waitForStatus(h.engine, id, ['succeeded', 'failed']);
      expect(done.status).toBe('succeeded');
      expect(done.provider).toBe('any:comfyui');
      ranOn.set(done.prompt, done.instance!);
      expect(done.events.find((e) => e.kind === 'started')).toMatchObject({
        message: `Started on ${done.instance}.`,
        data: { instance: done.instance },
      });
      const summary = (await h.engine.handlers['jobs.list']({ limit: 50, view: 'active' })).items.find(
        (j) => j.id === id,
      );
      expect(summary?.instance).toBe(done.instance);
    }
    // Each job ran where its summary says, and both servers had work.
    expect(promptsOf(slow).sort()).toEqual(
      [...ranOn]
        .filter(([, i]) => i === 'comfyui')
        .map(([p]) => p)
        .sort(),
    );
    expect(promptsOf(fast).sort()).toEqual(
      [...ranOn]
        .filter(([, i]) => i === 'comfyui-2')
        .map(([p]) => p)
        .sort(),
    );
    expect(promptsOf(slow).length).toBeGreaterThan(0);
    expect(promptsOf(fast).length).toBeGreaterThan(0);
  });

  it('sends a job only to a server that has its model, and prefers the one that has it loaded', async () => {
    const a = await startFakeComfyUI({ checkpoints: ['alpha.safetensors', 'shared.safetensors', 'other.safetensors'] });
    const b = await startFakeComfyUI({ checkpoints: ['beta.safetensors', 'shared.safetensors', 'other.safetensors'] });
    fakes.push(a, b);
    h = await startHarness({ providers: defaultProviders() });
    await twoComfy(h.engine, a, b);
    await h.engine.handlers['providers.test']({ id: 'comfyui' });
    await h.engine.handlers['providers.test']({ id: 'comfyui-2' });

    for (const [model, instance] of [
      ['beta.safetensors', 'comfyui-2'],
      ['alpha.safetensors', 'comfyui'],
      ['beta.safetensors', 'comfyui-2'],
    ] as const) {
      const done = await waitForStatus(h.engine, await submit(h.engine, 'any:comfyui', `needs ${model}`, model), [
        'succeeded',
        'failed',
      ]);
      expect(done).toMatchObject({ status: 'succeeded', instance });
    }
    // The settings status of the instance that ran them (not of "any:comfyui") says it works.
    await waitFor(
      async () =>
        (await h!.engine.handlers['providers.list']({})).providers.find((p) => p.id === 'comfyui-2')!.status.source ===
        'job',
    );
    // Both idle: the second server last ran "other", so the next "other" goes there, not to the first in the list.
    await waitForStatus(h.engine, await submit(h.engine, 'comfyui-2', 'load other', 'other.safetensors'), [
      'succeeded',
    ]);
    await waitForStatus(h.engine, await submit(h.engine, 'comfyui', 'load shared', 'shared.safetensors'), [
      'succeeded',
    ]);
    const other = await waitForStatus(
      h.engine,
      await submit(h.engine, 'any:comfyui', 'other again', 'other.safetensors'),
      ['succeeded'],
    );
    expect(other.instance).toBe('comfyui-2');
    const shared = await waitForStatus(
      h.engine,
      await submit(h.engine, 'any:comfyui', 'shared again', 'shared.safetensors'),
      ['succeeded'],
    );
    expect(shared.instance).toBe('comfyui');
    const health = (await h.engine.handlers['providers.list']({})).providers.find((p) => p.id === 'comfyui-2')!.health;
    expect(health).toMatchObject({ state: 'up', loadedModel: 'other.safetensors', running: [] });
    expect(modelOf(b, b.promptRequests().length - 1)).toBe('other.safetensors');
  });

  it('a server killed mid-run: marked down and probed, its running local job re-runs on the other with a trace line, queued work goes there, a job asking for it by id fails unsent', async () => {
    const doomed = await startFakeComfyUI({ scenario: { kind: 'success', stepMs: 100 } });
    const survivor = await startFakeComfyUI({ scenario: { kind: 'success', stepMs: 5 } });
    fakes.push(survivor);
    h = await startHarness({ providers: defaultProviders(), probeBackoff: { firstMs: 20, maxMs: 80 } });
    await twoComfy(h.engine, doomed, survivor);
    // The long job starts on the first server while the second is off.
    await h.engine.handlers['settings.update']({ providers: { 'comfyui-2': { enabled: false } } });
    const long = await h.engine.handlers['jobs.submit']({
      provider: 'any:comfyui',
      prompt: 'the long one',
      width: 64,
      height: 64,
      count: 1,
      steps: 150,
      model: CHECKPOINT,
    });
    await waitFor(() => doomed.promptRequests().length === 1);
    const runningOn = (await h.engine.handlers['providers.list']({})).providers.find((p) => p.id === 'comfyui')!.health;
    expect(runningOn).toMatchObject({ state: 'unknown', running: [long.job.id] });
    const pinned = await submit(h.engine, 'comfyui', 'only on the first');
    const queued: string[] = [];
    for (let i = 0; i < 3; i += 1) queued.push(await submit(h.engine, 'any:comfyui', `queued ${i}`));
    await h.engine.handlers['settings.update']({ providers: { 'comfyui-2': { enabled: true, concurrency: 1 } } });

    await doomed.close();
    const rerun = await waitForStatus(h.engine, long.job.id, ['succeeded', 'failed']);
    expect(rerun).toMatchObject({ status: 'succeeded', instance: 'comfyui-2' });
    const line = rerun.events.find((e) => e.kind === 'rerun');
    expect(line?.message).toMatch(/^comfyui stopped answering .* runs again on another comfyui server/);
    expect(rerun.events.filter((e) => e.kind === 'started').map((e) => e.data?.['instance'])).toEqual([
      'comfyui',
      'comfyui-2',
    ]);
    expect(promptsOf(survivor)).toContain('the long one');
    for (const id of queued)
      expect(await waitForStatus(h.engine, id, ['succeeded', 'failed'])).toMatchObject({
        status: 'succeeded',
        instance: 'comfyui-2',
      });

    // The job that asked for that server by id is tried there and ends plainly: nothing was sent.
    const unsent = await waitForStatus(h.engine, pinned, ['succeeded', 'failed']);
    expect(unsent.errorDetail).toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringMatching(/Nothing was sent/),
    });
    expect(promptsOf(survivor)).not.toContain('only on the first');
    const down = (await h.engine.handlers['providers.list']({})).providers.find((p) => p.id === 'comfyui')!.health;
    expect(down.state).toBe('down');
    expect(down.nextProbeAt).toBeGreaterThan(down.since!);
    // Probed, still refused, it stays down with a later probe due.
    await waitFor(
      async () =>
        ((await h!.engine.handlers['providers.list']({})).providers.find((p) => p.id === 'comfyui')!.health
          .nextProbeAt ?? 0) > down.nextProbeAt!,
    );

    // The server is back (at a new address): retried, the job that asked for it runs there.
    const back = await startFakeComfyUI();
    fakes.push(back);
    await h.engine.handlers['settings.update']({ providers: { comfyui: { baseUrl: back.url } } });
    const retried = await h.engine.handlers['jobs.retry']({ id: pinned });
    expect(await waitForStatus(h.engine, retried.job.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
    });
    expect(promptsOf(back)).toEqual(['only on the first']);
  });

  it('a job asking by id for a down server fails at once, unsent; any:<kind> with every server down waits, then fails unsent', async () => {
    const gone = await startFakeComfyUI();
    const url = gone.url;
    await gone.close();
    h = await startHarness({
      providers: defaultProviders(),
      probeBackoff: { firstMs: 20, maxMs: 80 },
      retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 20 },
    });
    await h.engine.handlers['settings.update']({
      providers: { comfyui: { enabled: true, baseUrl: url, timeoutMs: 1_000 } },
    });
    // The first one finds it down; the second, asked by id while it is down, is still tried: the person chose it.
    const first = await submit(h.engine, 'comfyui', 'finds it down');
    expect((await waitForStatus(h.engine, first, ['failed'])).errorDetail?.code).toBe('provider_unavailable');
    const second = await submit(h.engine, 'comfyui', 'asked while down');
    const tried = await waitForStatus(h.engine, second, ['failed']);
    expect(tried.errorDetail).toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringMatching(/Nothing was sent/),
    });
    expect(tried.events.map((e) => e.kind)).toContain('attempt');
    // Any ComfyUI, while the only one is down: it waits for one to answer, up to the timeout, and is never sent.
    const any = await submit(h.engine, 'any:comfyui', 'waits for any');
    const waited = await waitForStatus(h.engine, any, ['failed']);
    expect(waited.errorDetail?.message).toBe(
      'No comfyui server answered for 1 s, so this job was never sent. Retry it once a server is back.',
    );
    expect(waited.events.map((e) => e.kind)).toEqual(['submitted', 'waiting', 'failed']);
  });

  it('looks past a long run of jobs waiting for a down server to one the idle server can take', async () => {
    const gone = await startFakeComfyUI();
    const url = gone.url;
    await gone.close();
    const up = await startFakeComfyUI();
    fakes.push(up);
    h = await startHarness({ providers: defaultProviders(), probeBackoff: { firstMs: 60_000, maxMs: 60_000 } });
    await twoComfy(h.engine, gone, up);
    await h.engine.handlers['settings.update']({ providers: { comfyui: { baseUrl: url } } });
    // A failed connection test counts as a probe: the first server is down before any job.
    await h.engine.handlers['providers.test']({ id: 'comfyui' });
    for (let i = 0; i < 120; i += 1) await submit(h.engine, 'comfyui', `waits ${i}`);
    const behind = await submit(h.engine, 'any:comfyui', 'behind them all');
    expect(await waitForStatus(h.engine, behind, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      instance: 'comfyui-2',
    });
    expect(promptsOf(up)).toEqual(['behind them all']);
  });

  it('paid work is never re-sent: an any:openai job whose endpoint dies mid-run fails, and the other endpoint never sees it', async () => {
    const dying = await startFakeOpenAI({ apiKey: 'sk-one', scenario: { kind: 'success', stepMs: 5_000 } });
    const spare = await startFakeOpenAI({ apiKey: 'sk-two' });
    fakes.push(spare);
    h = await startHarness({ providers: defaultProviders(), probeBackoff: { firstMs: 20, maxMs: 80 } });
    await h.engine.handlers['settings.update']({ providers: { openai: { apiKey: 'sk-one', baseUrl: dying.url } } });
    await h.engine.handlers['providers.add']({ kind: 'openai', name: 'Spare endpoint', baseUrl: spare.url });
    await h.engine.handlers['settings.update']({ providers: { 'openai-2': { apiKey: 'sk-two', concurrency: 1 } } });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'any:openai',
      model: 'gpt-image-1',
      prompt: 'a bill',
      width: 1024,
      height: 1024,
      count: 1,
    });
    await waitFor(() => dying.generationRequests().length === 1);
    await dying.close();
    const failed = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(failed.status).toBe('failed');
    expect(failed.instance).toBe('openai');
    expect(failed.events.some((e) => e.kind === 'rerun')).toBe(false);
    expect(spare.generationRequests()).toHaveLength(0);
    // It was seen down all the same: the next any:openai job goes to the spare.
    const next = await h.engine.handlers['jobs.submit']({
      provider: 'any:openai',
      model: 'gpt-image-1',
      prompt: 'the next one',
      width: 1024,
      height: 1024,
      count: 1,
    });
    expect(await waitForStatus(h.engine, next.job.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      instance: 'openai-2',
    });
  });
});
