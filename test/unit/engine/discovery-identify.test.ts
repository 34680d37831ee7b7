import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cleanVersion,
  identifyA1111Options,
  identifyA1111Sysinfo,
  identifyComfyUI,
  identifyInvokeAI,
  identifySwarmUI,
} from '../../../electron/engine/discovery/identify.js';
import { ENGINE_CANDIDATES } from '../../../electron/engine/discovery/candidates.js';

const json = (value: unknown) => JSON.stringify(value);
const identifiers = [
  (t: string) => identifyComfyUI(t, 'ComfyUI'),
  identifyA1111Sysinfo,
  identifyA1111Options,
  identifySwarmUI,
  identifyInvokeAI,
];

describe('the places the probe looks', () => {
  it('are exactly the usual local ports of ComfyUI, its desktop app, A1111/Forge, SwarmUI and InvokeAI', () => {
    expect(ENGINE_CANDIDATES.map((c) => [c.port, c.kind, c.name])).toEqual([
      [8188, 'comfyui', 'ComfyUI'],
      [8000, 'comfyui', 'ComfyUI Desktop'],
      [7860, 'a1111', 'AUTOMATIC1111'],
      [7861, 'a1111', 'AUTOMATIC1111'],
      [7801, 'swarmui', 'SwarmUI'],
      [9090, 'invokeai', 'InvokeAI'],
    ]);
  });
});

describe('identifying answers', () => {
  it('ComfyUI names itself with system.comfyui_version in /system_stats', () => {
    const stats = { system: { os: 'posix', comfyui_version: '0.3.40', python_version: '3.12.3' }, devices: [] };
    expect(identifyComfyUI(json(stats), 'ComfyUI Desktop')).toEqual({ name: 'ComfyUI Desktop', version: '0.3.40' });
    // Older ComfyUI has no version field but the same shape.
    expect(identifyComfyUI(json({ system: { python_version: '3.10' }, devices: [] }), 'ComfyUI')).toEqual({
      name: 'ComfyUI',
    });
  });

  it('A1111 names its git tag in /internal/sysinfo; Forge is told apart by its f-prefixed version', () => {
    expect(identifyA1111Sysinfo(json({ Platform: 'Linux', Version: 'v1.10.1', Commit: 'abc' }))).toEqual({
      name: 'AUTOMATIC1111',
      version: 'v1.10.1',
    });
    expect(
      identifyA1111Sysinfo(json({ Platform: 'Windows', Version: 'f2.0.1v1.10.1-previous-669-gdfdcbab6' })),
    ).toEqual({ name: 'Forge', version: 'f2.0.1v1.10.1-previous-669-gdfdcbab6' });
    expect(identifyA1111Options(json({ sd_model_checkpoint: 'x.safetensors', CLIP_stop_at_last_layers: 1 }))).toEqual({
      name: 'AUTOMATIC1111',
    });
  });

  it('SwarmUI answers GetNewSession with a session id and its version', () => {
    const session = { session_id: 'ABC', user_id: 'local', version: '0.9.7.0', server_id: 'x', permissions: [] };
    expect(identifySwarmUI(json(session))).toEqual({ name: 'SwarmUI', version: '0.9.7.0' });
    expect(identifySwarmUI(json({ error: 'Invalid or unauthorized.' }))).toBeUndefined();
  });

  it('InvokeAI answers /api/v1/app/version with its version', () => {
    expect(identifyInvokeAI(json({ version: '5.6.0', highlights: [] }))).toEqual({
      name: 'InvokeAI',
      version: '5.6.0',
    });
  });

  it('a web page, a JSON array or another JSON service is named by none of them', () => {
    for (const text of ['<!doctype html><title>Jupyter</title>', '[1,2]', json({ status: 'ok' }), '', 'null']) {
      for (const identify of identifiers) expect(identify(text)).toBeUndefined();
    }
  });

  it('a version that is no short version text is left out, never shown', () => {
    expect(cleanVersion('<script>alert(1)</script>')).toBeUndefined();
    expect(cleanVersion('1'.repeat(65))).toBeUndefined();
    expect(cleanVersion(42)).toBeUndefined();
    const hostile = { system: { comfyui_version: 'x'.repeat(10_000) }, devices: [] };
    expect(identifyComfyUI(json(hostile), 'ComfyUI')).toEqual({ name: 'ComfyUI' });
  });

  it('any text at all: no identifier throws, and a version kept is always short and plain', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc
            .jsonValue()
            .map((v) => json({ system: v, devices: [], version: v, Version: v, session_id: 's', Platform: 1 })),
        ),
        (text) => {
          for (const identify of identifiers) {
            const found = identify(text);
            if (found?.version !== undefined) expect(found.version).toMatch(/^[\w.+-]{1,64}$/);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a deeply nested answer is named by none of them and throws nothing', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    for (const identify of identifiers) expect(identify(deep)).toBeUndefined();
  });
});
