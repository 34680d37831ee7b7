import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/db/store.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startFakeA1111, startFakeComfyUI, type FakeA1111, type FakeComfy } from '../../fakes/index.js';
import { memoryKeyring, startHarness, waitFor, waitForStatus, type Harness, type HarnessOptions } from './harness.js';

describe('several servers of one kind: adding, keeping and removing instances', () => {
  let h: Harness | undefined;
  const fakes: Array<FakeComfy | FakeA1111> = [];
  afterEach(async () => {
    await h?.cleanup();
    for (const fake of fakes.splice(0)) await fake.close();
    h = undefined;
  });

  const listed = async (id: string) =>
    (await h!.engine.handlers['providers.list']({})).providers.find((p) => p.id === id);

  it('a library from before instances keeps its settings; an added instance persists across a restart with its own settings, secret and server', async () => {
    const first = await startFakeComfyUI({ checkpoints: ['first.safetensors'] });
    const second = await startFakeComfyUI({ checkpoints: ['second.safetensors'] });
    fakes.push(first, second);
    // Counts the provider objects the ComfyUI kind makes: one per added instance, per start.
    let made = 0;
    const counted = () => {
      const entries = defaultProviders();
      const comfy = entries.find((e) => e.provider.id === 'comfyui')!;
      const create = comfy.create!;
      comfy.create = () => {
        made += 1;
        return create();
      };
      return { providers: entries };
    };
    h = await startHarness(counted());
    await h.engine.close();
    // The settings row exactly as an older Atelier wrote it: no instances at all.
    const store = openStore({ dataDir: h.dataDir });
    store.setSetting('settings', {
      concurrency: { global: 3 },
      retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
      theme: 'dark',
      providers: {
        comfyui: {
          enabled: true,
          baseUrl: first.url,
          timeoutMs: 60_000,
          concurrency: 1,
          hasApiKey: false,
          hasPassword: false,
        },
      },
      library: { xmpSidecars: false },
    });
    store.close();
    await h.open(counted());

    const before = await h.engine.handlers['providers.list']({});
    expect(before.providers.map((p) => [p.id, p.kind])).toEqual([
      ['builtin', 'builtin'],
      ['openai', 'openai'],
      ['gemini', 'gemini'],
      ['bfl', 'bfl'],
      ['fal', 'fal'],
      ['replicate', 'replicate'],
      ['stability', 'stability'],
      ['a1111', 'a1111'],
      ['comfyui', 'comfyui'],
      ['runpod', 'runpod'],
    ]);
    expect((await h.engine.handlers['settings.get']({})).providers['comfyui']).toMatchObject({
      enabled: true,
      baseUrl: first.url,
      timeoutMs: 60_000,
    });
    const old = await h.engine.handlers['jobs.submit']({
      provider: 'comfyui',
      prompt: 'an old library still works',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    expect((await waitForStatus(h.engine, old.job.id, ['succeeded', 'failed'])).status).toBe('succeeded');

    const { provider } = await h.engine.handlers['providers.add']({
      kind: 'comfyui',
      name: 'GPU box',
      baseUrl: second.url,
      concurrency: 2,
    });
    expect(provider).toMatchObject({
      id: 'comfyui-2',
      kind: 'comfyui',
      name: 'GPU box',
      concurrency: 2,
      enabled: false,
      health: { state: 'unknown', running: [] },
    });
    expect(made).toBe(1);
    // Its URL, login and switch are set like any provider's, keyed by its id.
    await h.engine.handlers['settings.update']({
      providers: { 'comfyui-2': { enabled: true, username: 'ana', password: 'pw-second' } },
    });

    await h.engine.close();
    await h.open(counted());
    expect(made).toBe(2);
    const info = await listed('comfyui-2');
    expect(info).toMatchObject({
      id: 'comfyui-2',
      kind: 'comfyui',
      name: 'GPU box',
      enabled: true,
      configured: true,
      concurrency: 2,
    });
    const settings = (await h.engine.handlers['settings.get']({})).providers;
    expect(settings['comfyui-2']).toMatchObject({ baseUrl: second.url, username: 'ana', hasPassword: true });
    expect(settings['comfyui']).toMatchObject({ baseUrl: first.url, hasPassword: false });
    // Its own provider object: a test goes to its own server, with its own login, and lists its own models.
    const tested = await h.engine.handlers['providers.test']({ id: 'comfyui-2' });
    expect(tested.models).toEqual(['second.safetensors']);
    expect(
      second.requests.some(
        (r) => r.headers.authorization === `Basic ${Buffer.from('ana:pw-second').toString('base64')}`,
      ),
    ).toBe(true);
    expect(first.requests.some((r) => r.headers.authorization !== undefined)).toBe(false);
    expect((await listed('comfyui-2'))!.models).toEqual(['second.safetensors']);
    expect((await listed('comfyui'))!.models).toEqual(['first.safetensors']);
  });

  it('submit checks any:<kind> against an instance that is on and set up, and says why when none is', async () => {
    const second = await startFakeComfyUI();
    fakes.push(second);
    h = await startHarness({ providers: defaultProviders() });
    const ask = {
      provider: 'any:comfyui',
      model: 'v1-5-pruned-emaonly.safetensors',
      prompt: 'a quiet street',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    };
    await expect(h.engine.handlers['jobs.submit'](ask)).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'ComfyUI is turned off. Turn it on in Settings first.',
    });
    // The first one stays off; the added one is on: it is the one checked, and the one that runs it.
    await h.engine.handlers['providers.add']({ kind: 'comfyui', name: 'Attic GPU', baseUrl: second.url });
    await h.engine.handlers['settings.update']({ providers: { 'comfyui-2': { enabled: true } } });
    const { job } = await h.engine.handlers['jobs.submit'](ask);
    expect(await waitForStatus(h.engine, job.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      provider: 'any:comfyui',
      instance: 'comfyui-2',
    });
    // A request the kind's servers refuse is refused at submit, as for one named server.
    await expect(h.engine.handlers['jobs.submit']({ ...ask, width: 65 })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    const builtin = await h.engine.handlers['jobs.submit']({
      provider: 'any:builtin',
      prompt: 'a quiet street',
      width: 64,
      height: 64,
      count: 1,
    });
    expect(await waitForStatus(h.engine, builtin.job.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      instance: 'builtin',
    });
  });

  it('remove: an added instance goes with its secrets, its queued jobs move to any instance of its kind; the first one stays', async () => {
    const slow = await startFakeA1111({ scenario: { kind: 'success', stepMs: 150 } });
    const other = await startFakeA1111();
    fakes.push(slow, other);
    const keyring = memoryKeyring();
    // The harness's own keyring, shared across the restart, so the test can look inside it.
    const withKeyring = (): HarnessOptions => ({ providers: defaultProviders(), keyring }) as HarnessOptions;
    h = await startHarness(withKeyring());
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: other.url } } });
    const { provider } = await h.engine.handlers['providers.add']({
      kind: 'a1111',
      name: 'Studio PC',
      baseUrl: slow.url,
    });
    expect(provider.id).toBe('a1111-2');
    await h.engine.handlers['settings.update']({
      providers: { 'a1111-2': { enabled: true, password: 'studio-secret', username: 'me' } },
    });
    expect(keyring.values.get('provider.a1111-2.password')).toBe('studio-secret');

    // Three jobs for this server: one runs (slowly), two wait in its queue.
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) {
      ids.push(
        (
          await h.engine.handlers['jobs.submit']({
            provider: 'a1111-2',
            prompt,
            width: 64,
            height: 64,
            count: 1,
            steps: 20,
          })
        ).job.id,
      );
    }
    await waitFor(async () => (await h!.engine.handlers['jobs.get']({ id: ids[0]! })).status === 'running');

    await expect(h.engine.handlers['providers.remove']({ id: 'a1111' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('first'),
    });
    await expect(h.engine.handlers['providers.remove']({ id: 'a1111-9' })).rejects.toMatchObject({ code: 'not_found' });

    const removed = await h.engine.handlers['providers.remove']({ id: 'a1111-2' });
    expect(removed).toEqual({ removed: true, movedJobs: 2 });
    expect(keyring.values.has('provider.a1111-2.password')).toBe(false);
    expect((await h.engine.handlers['providers.list']({})).providers.map((p) => p.id)).not.toContain('a1111-2');
    expect((await h.engine.handlers['settings.get']({})).providers['a1111-2']).toBeUndefined();
    for (const id of ids.slice(1)) {
      const done = await waitForStatus(h.engine, id, ['succeeded', 'failed']);
      expect(done).toMatchObject({ status: 'succeeded', provider: 'any:a1111', instance: 'a1111' });
      expect(done.request.provider).toBe('any:a1111');
      expect(done.events.find((e) => e.kind === 'moved')?.message).toContain('Studio PC was removed');
    }
    expect(
      other
        .generationRequests()
        .map((r) => (r.json as { prompt: string }).prompt)
        .sort(),
    ).toEqual(['three', 'two']);

    // Gone after a restart too, and a later server never gets the removed one's id.
    await h.engine.close();
    await h.open(withKeyring());
    expect((await h.engine.handlers['providers.list']({})).providers.map((p) => p.id)).toEqual([
      'builtin',
      'openai',
      'gemini',
      'bfl',
      'fal',
      'replicate',
      'stability',
      'a1111',
      'comfyui',
      'runpod',
    ]);
    expect((await h.engine.handlers['providers.add']({ kind: 'a1111', name: 'Laptop' })).provider.id).toBe('a1111-3');
  });
});
