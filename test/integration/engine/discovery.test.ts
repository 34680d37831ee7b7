// The only test file that binds the engines' real ports on 127.0.0.1: a busy port fails it with a sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/host/dispatch.js';
import { startFakeComfyUI, type FakeComfy } from '../../fakes/comfyui.js';
import { forwardPort, startLocalEngine, type LocalServer } from '../../fakes/local-engines.js';
import { transcript } from '../../fakes/comfyui-nodes.js';
import { startHarness, type Harness } from './harness.js';

/** The ComfyUI version the fake reports, as a real server's transcript recorded it. */
const COMFY = transcript().comfyuiVersion;
let harness: Harness;
const comfys: FakeComfy[] = [];
const servers: LocalServer[] = [];

beforeAll(async () => {
  harness = await startHarness();
  comfys.push(await startFakeComfyUI(), await startFakeComfyUI());
  const started = await Promise.allSettled([
    forwardPort(8188, Number(new URL(comfys[0]!.url).port)),
    forwardPort(8000, Number(new URL(comfys[1]!.url).port)),
    startLocalEngine('a1111', { port: 7860, version: 'f2.0.1v1.10.1-previous-669-gdfdcbab6' }),
    // Something that is no engine, where A1111's second instance would be.
    startLocalEngine('a1111', {
      port: 7861,
      answer: (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Wiki</title>'),
    }),
    startLocalEngine('swarmui', { port: 7801, version: '0.9.7.0' }),
    startLocalEngine('invokeai', { port: 9090, version: '5.6.0' }),
  ]);
  for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
  const refused = started.find((s) => s.status === 'rejected');
  if (refused !== undefined) throw (refused as PromiseRejectedResult).reason;
});

afterAll(async () => {
  await Promise.all([...servers, ...comfys].map((s) => s.close()));
  await harness?.cleanup();
});

describe('engines on this computer', () => {
  it('engines.find names each engine on its usual port with its version, and something else as a port', async () => {
    const found = await harness.engine.handlers['engines.find']({});
    expect(found.engines.map((e) => [e.name, e.version, e.url, e.connectable, e.alreadyConnected])).toEqual([
      ['ComfyUI', COMFY, 'http://127.0.0.1:8188', true, false],
      ['ComfyUI Desktop', COMFY, 'http://127.0.0.1:8000', true, false],
      ['Forge', 'f2.0.1v1.10.1-previous-669-gdfdcbab6', 'http://127.0.0.1:7860', true, false],
      ['SwarmUI', '0.9.7.0', 'http://127.0.0.1:7801', false, false],
      ['InvokeAI', '5.6.0', 'http://127.0.0.1:9090', false, false],
    ]);
    expect(found.otherPorts).toEqual([7861]);
  });

  it('connects ComfyUI in one click: the first instance is on at that address and its test passed', async () => {
    const connected = await harness.engine.handlers['engines.connect']({ url: 'http://127.0.0.1:8188' });
    expect(connected.created).toBe(false);
    expect(connected.test.ok).toBe(true);
    expect(connected.provider).toMatchObject({ id: 'comfyui', enabled: true, configured: true });
    expect(connected.provider.status.state).toBe('ready');
    const settings = await harness.engine.handlers['settings.get']({});
    expect(settings.providers['comfyui']).toMatchObject({ enabled: true, baseUrl: 'http://127.0.0.1:8188' });
    const again = await harness.engine.handlers['engines.find']({});
    expect(again.engines[0]).toMatchObject({ alreadyConnected: true, providerId: 'comfyui' });
  });

  it('a second ComfyUI (the desktop app) becomes a new instance beside the first, which stays where it was', async () => {
    const connected = await harness.engine.handlers['engines.connect']({ url: 'http://127.0.0.1:8000' });
    expect(connected.created).toBe(true);
    expect(connected.provider).toMatchObject({
      kind: 'comfyui',
      enabled: true,
      name: `ComfyUI Desktop ${COMFY} (port 8000)`,
    });
    expect(connected.test.ok).toBe(true);
    const settings = await harness.engine.handlers['settings.get']({});
    expect(settings.providers[connected.provider.id]?.baseUrl).toBe('http://127.0.0.1:8000');
    expect(settings.providers['comfyui']?.baseUrl).toBe('http://127.0.0.1:8188');
    // Connecting it again reuses that instance.
    const twice = await harness.engine.handlers['engines.connect']({ url: 'http://127.0.0.1:8000' });
    expect([twice.created, twice.provider.id]).toEqual([false, connected.provider.id]);
  });

  it('SwarmUI and InvokeAI are named but not driven; other hosts, other ports and what is no engine are refused', async () => {
    const call = (url: unknown) => dispatch(harness.engine.handlers, 'engines.connect', { url });
    const swarm = await call('http://127.0.0.1:7801');
    expect(swarm).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(JSON.stringify(swarm)).toContain('import its output folder');
    for (const url of [
      'http://192.168.1.20:8188',
      'http://localhost:8188',
      'http://127.0.0.1:8188/x',
      'http://127.0.0.1:22',
    ]) {
      expect(await call(url)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(await call('http://127.0.0.1:7861')).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
