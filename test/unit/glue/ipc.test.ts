import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES } from '../../../shared/contract.js';
import type { Result } from '../../../shared/errors.js';
import { createFakeEngine, type FakeEngine } from '../../fakes/engine.js';

type Handler = (event: unknown, raw: unknown) => Promise<Result<unknown>>;
const electron = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, raw: unknown) => unknown>(),
}));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: (event: unknown, raw: unknown) => unknown) => {
      if (electron.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      electron.handlers.set(channel, fn);
    },
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
}));

const { registerIpc, isTrustedSender } = await import('../../../electron/glue/ipc.js');

const appFrame = { url: 'atelier://app/index.html', parent: null };
const fromApp = { senderFrame: appFrame };
const ID = '0190a6e2-0000-7000-8000-000000000001';

function handler(channel: string): Handler {
  const fn = electron.handlers.get(channel);
  if (fn === undefined) throw new Error(`no handler for ${channel}`);
  return fn as Handler;
}

describe('IPC registrar', () => {
  let engine: FakeEngine;
  let dispose: () => void;
  const sent: { channel: string; payload: unknown }[] = [];
  let destroyed = false;
  const target = {
    isDestroyed: () => destroyed,
    send: (channel: string, payload: unknown) => sent.push({ channel, payload }),
  };
  const unexpected = vi.fn();

  beforeEach(() => {
    engine = createFakeEngine('/nonexistent');
    sent.length = 0;
    destroyed = false;
    unexpected.mockClear();
    dispose = registerIpc({
      handlers: engine.handlers,
      events: engine.events,
      target: () => target as never,
      onUnexpected: unexpected,
    });
  });
  afterEach(() => dispose());

  it('registers exactly one handler per contract channel and nothing else', () => {
    expect([...electron.handlers.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());
  });

  it('validates, calls the engine and returns {ok, value}', async () => {
    const result = await handler('jobs.list')(fromApp, { limit: 5 });
    expect(result).toEqual({ ok: true, value: { items: [], nextCursor: null } });
    // Defaults from the schema are applied before the engine sees the input.
    expect(engine.calls).toEqual([{ channel: 'jobs.list', input: { limit: 5, view: 'active' } }]);
  });

  it('answers a bad payload with invalid_request and per-field details, without calling the engine', async () => {
    const result = await handler('jobs.submit')(fromApp, { provider: 'builtin', prompt: '', width: 10 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_request');
    expect(result.error.details?.fields).toMatchObject({ prompt: expect.any(String), width: expect.any(String) });
    expect(engine.calls).toHaveLength(0);
  });

  it('refuses unknown keys (strict schemas)', async () => {
    const result = await handler('jobs.get')(fromApp, { id: ID, extra: 1 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('passes AppErrors through and hides unexpected ones', async () => {
    expect(await handler('jobs.get')(fromApp, { id: ID })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const boom = await handler('jobs.submit')(fromApp, {
      provider: 'builtin',
      prompt: 'boom',
      width: 512,
      height: 512,
      count: 1,
    });
    expect(boom).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Something went wrong inside Atelier.', retryable: false },
    });
    expect(unexpected).toHaveBeenCalledOnce();
  });

  const foreign: [string, unknown][] = [
    ['another origin', { senderFrame: { url: 'https://evil.example/', parent: null } }],
    ['a look-alike host', { senderFrame: { url: 'atelier://app.evil/index.html', parent: null } }],
    ['credentials in the URL', { senderFrame: { url: 'atelier://x@app/index.html', parent: null } }],
    ['file://', { senderFrame: { url: 'file:///index.html', parent: null } }],
    ['a subframe of the app', { senderFrame: { url: 'atelier://app/index.html', parent: appFrame } }],
    ['a destroyed frame', { senderFrame: null }],
    ['an unparsable URL', { senderFrame: { url: 'not a url', parent: null } }],
  ];
  it.each(foreign)('refuses %s without calling the engine', async (_label, event) => {
    await expect(handler('settings.get')(event, {})).rejects.toThrow(/Refused/);
    expect(engine.calls).toHaveLength(0);
  });

  it('accepts only the top frame of the app', () => {
    expect(isTrustedSender(fromApp as never)).toBe(true);
    expect(isTrustedSender({ senderFrame: { url: 'atelier://app/#/settings?x=1', parent: null } } as never)).toBe(true);
  });

  it('forwards engine events to the window on their own channels, and stops after dispose', async () => {
    engine.emit('jobs.progress', { id: ID, stage: 'denoising', partialImages: 0, fraction: 0.5 });
    engine.emit('jobs.removed', { ids: [ID] });
    expect(sent).toEqual([
      {
        channel: 'atelier:event:jobs.progress',
        payload: { id: ID, stage: 'denoising', partialImages: 0, fraction: 0.5 },
      },
      { channel: 'atelier:event:jobs.removed', payload: { ids: [ID] } },
    ]);
    destroyed = true;
    engine.emit('jobs.removed', { ids: [ID] });
    expect(sent).toHaveLength(2);
    dispose();
    expect(electron.handlers.size).toBe(0);
    expect(engine.listenerCount()).toBe(0);
    dispose = () => undefined;
  });
});
