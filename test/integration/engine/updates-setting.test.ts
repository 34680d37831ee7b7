import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/host/dispatch.js';
import { headlessHandlers } from '../../../electron/serve/server.js';
import { startHarness, type Harness } from './harness.js';

/** The `updates.auto` setting as the Settings panel reads and writes it, and the update channels without a desktop. */
describe('the automatic-updates setting', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('is on by default, turns off, and stays off after a restart', async () => {
    h = await startHarness();
    expect((await h.engine.handlers['settings.get']({})).updates).toEqual({ auto: true });
    const saved = await dispatch(h.engine.handlers, 'settings.update', { updates: { auto: false } });
    expect(saved).toMatchObject({ ok: true, value: { updates: { auto: false } } });
    await h.engine.close({ graceMs: 0 });
    await h.open();
    expect((await h.engine.handlers['settings.get']({})).updates).toEqual({ auto: false });
    // Another setting's save leaves it as it is.
    await h.engine.handlers['settings.update']({ theme: 'dark' });
    expect((await h.engine.handlers['settings.get']({})).updates).toEqual({ auto: false });
  });

  it('refuses anything but a boolean, and unknown fields', async () => {
    h = await startHarness();
    for (const updates of [{ auto: 'yes' }, { auto: true, channel: 'beta' }]) {
      expect(await dispatch(h.engine.handlers, 'settings.update', { updates })).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    }
    expect((await h.engine.handlers['settings.get']({})).updates).toEqual({ auto: true });
  });

  it('without the desktop app: status says off (unsupported), restart answers desktop_only', async () => {
    h = await startHarness();
    const handlers = headlessHandlers(h.engine.handlers);
    expect(await dispatch(handlers, 'updates.status', {})).toEqual({
      ok: true,
      value: { state: 'off', reason: 'unsupported' },
    });
    expect(await dispatch(handlers, 'updates.restart', {})).toMatchObject({
      ok: false,
      error: { code: 'desktop_only' },
    });
  });
});
