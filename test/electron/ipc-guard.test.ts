import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeCall, launchApp, type RunningApp } from './app.js';

/**
 * A frame that is not the app's own top frame must get nothing from main, even with ipcRenderer in hand. The probe is
 * a second window whose preload exposes raw ipcRenderer.invoke (what injected code in a foreign page would want).
 */
let running: RunningApp;
let probe: Page;

const PROBE_PRELOAD = `
const { contextBridge, ipcRenderer } = require('electron');
contextBridge.exposeInMainWorld('probe', (channel, input) =>
  ipcRenderer.invoke(channel, input).then(
    (value) => ({ answered: true, value }),
    (error) => ({ answered: false, message: String(error && error.message) }),
  ),
);
`;

interface ProbeAnswer {
  answered: boolean;
  value?: { ok: boolean; value?: unknown };
  message?: string;
}

const invoke = (page: Page, channel: string, input: unknown): Promise<ProbeAnswer> =>
  page.evaluate(
    ([name, payload]) =>
      (globalThis as unknown as { probe: (c: unknown, i: unknown) => Promise<ProbeAnswer> }).probe(name, payload),
    [channel, input] as const,
  );

/** The preload runs per document: wait until this one has exposed the probe. */
const probeReady = (page: Page) =>
  page.waitForFunction(() => typeof (globalThis as unknown as { probe?: unknown }).probe === 'function');

beforeAll(async () => {
  running = await launchApp();
  const preload = join(running.userDataDir, 'probe-preload.cjs');
  await writeFile(preload, PROBE_PRELOAD);
  const opened = running.app.waitForEvent('window');
  await running.app.evaluate(async ({ BrowserWindow }, path) => {
    const win = new BrowserWindow({
      show: false,
      webPreferences: { preload: path, sandbox: true, contextIsolation: true },
    });
    await win.loadURL('data:text/html,<title>foreign</title><p>not Atelier</p>');
  }, preload);
  probe = await opened;
  await probeReady(probe);
});

afterAll(() => running?.close());

describe('IPC from a foreign frame', () => {
  it('is refused: a data: page gets an error for every channel, and its jobs.submit queues nothing', async () => {
    const settings = await invoke(probe, 'settings.get', {});
    expect(settings).toEqual({
      answered: false,
      message: expect.stringContaining('Refused "settings.get" from a frame that is not the Atelier app'),
    });
    const submit = await invoke(probe, 'jobs.submit', {
      provider: 'builtin',
      prompt: 'smuggled in by a foreign page',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    expect(submit.answered).toBe(false);
    const page = await bridgeCall<{ items: { prompt: string }[] }>(running.window, 'jobs.list', {});
    expect(page.items.map((j) => j.prompt)).not.toContain('smuggled in by a foreign page');
  });

  it('the same probe is answered once its window shows the app itself: the refusal is the sender check', async () => {
    await probe.goto('atelier://app/index.html');
    await probeReady(probe);
    const settings = await invoke(probe, 'settings.get', {});
    expect(settings.answered).toBe(true);
    expect(settings.value?.ok).toBe(true);
  });
});
