import { afterEach, describe, expect, it } from 'vitest';
import { probeAll, probePort } from '../../../electron/engine/discovery/probe.js';
import type { EngineCandidate } from '../../../electron/engine/discovery/candidates.js';
import { startLocalEngine, type LocalServer } from '../../fakes/local-engines.js';
import { createServer } from 'node:net';

/** A port nothing listens on: bound, noted, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const open: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const serve = async (...args: Parameters<typeof startLocalEngine>) => {
  const server = await startLocalEngine(...args);
  open.push(server);
  return server;
};
const at = (port: number, kind: EngineCandidate['kind'], name = 'Engine'): EngineCandidate => ({ port, kind, name });

describe('probing one port', () => {
  it('names each engine by its own answer, with its version and loopback address', async () => {
    const comfy = await serve('comfyui', { version: '0.3.40' });
    const forge = await serve('a1111', { version: 'f2.0.1v1.10.1-previous-669-gdfdcbab6' });
    const swarm = await serve('swarmui', { version: '0.9.7.0' });
    const invoke = await serve('invokeai', { version: '5.6.0' });
    const found = await probeAll([
      at(comfy.port, 'comfyui', 'ComfyUI Desktop'),
      at(forge.port, 'a1111'),
      at(swarm.port, 'swarmui'),
      at(invoke.port, 'invokeai'),
    ]);
    expect(found).toEqual([
      {
        found: 'engine',
        kind: 'comfyui',
        name: 'ComfyUI Desktop',
        version: '0.3.40',
        url: `http://127.0.0.1:${comfy.port}`,
        port: comfy.port,
      },
      {
        found: 'engine',
        kind: 'a1111',
        name: 'Forge',
        version: 'f2.0.1v1.10.1-previous-669-gdfdcbab6',
        url: `http://127.0.0.1:${forge.port}`,
        port: forge.port,
      },
      {
        found: 'engine',
        kind: 'swarmui',
        name: 'SwarmUI',
        version: '0.9.7.0',
        url: `http://127.0.0.1:${swarm.port}`,
        port: swarm.port,
      },
      {
        found: 'engine',
        kind: 'invokeai',
        name: 'InvokeAI',
        version: '5.6.0',
        url: `http://127.0.0.1:${invoke.port}`,
        port: invoke.port,
      },
    ]);
    expect(swarm.requests).toEqual(['POST /API/GetNewSession']);
  });

  it('an A1111 without /internal/sysinfo is still named from /sdapi/v1/options', async () => {
    const old = await serve('a1111', {
      answer: (res) => res.writeHead(200).end(JSON.stringify({ sd_model_checkpoint: 'v1-5.safetensors' })),
    });
    // The fake answers everything with the options; sysinfo's shape is missing, so options names it.
    expect(await probePort(at(old.port, 'a1111'))).toMatchObject({ found: 'engine', name: 'AUTOMATIC1111' });
    expect(old.requests).toEqual(['GET /internal/sysinfo', 'GET /sdapi/v1/options']);
  });

  it('something else on the port is "other", not an engine', async () => {
    const web = await serve('comfyui', {
      answer: (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>Jupyter</h1>'),
    });
    const notFound = await serve('invokeai', { answer: (res) => res.writeHead(404).end('{"version":"5.6.0"}') });
    expect(await probePort(at(web.port, 'comfyui'))).toEqual({ found: 'other', port: web.port });
    expect(await probePort(at(notFound.port, 'invokeai'))).toEqual({ found: 'other', port: notFound.port });
  });

  it('a huge answer is cut at the bound and counts as something else', async () => {
    let sent = 0;
    const huge = await serve('comfyui', {
      answer: (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const block = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (sent < 64 * 1024 * 1024 && !res.destroyed) {
            sent += block.length;
            if (!res.write(block)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
    });
    expect(await probePort(at(huge.port, 'comfyui'), { maxBytes: 256 * 1024 })).toEqual({
      found: 'other',
      port: huge.port,
    });
    // Cut off near the bound, not read to its 64 MB end.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('a port that accepts but never answers is given up after the timeout, and a closed one at once', async () => {
    const silent = await serve('comfyui', { answer: () => undefined });
    const closed = await closedPort();
    // A probe that never gave up would hang here until the test's own timeout: no time is asserted.
    const found = await probeAll([at(silent.port, 'comfyui'), at(closed, 'a1111')], { timeoutMs: 200 });
    expect(found).toEqual([
      { found: 'nothing', port: silent.port },
      { found: 'nothing', port: closed },
    ]);
  });
});
