import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getCurrentFuseWire } from '@electron/fuses';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUSE_SETTINGS } from '../../electron/build/fuses.js';
import { DATABASE_FILE } from '../../electron/db/store.js';
import { DATA_SUBDIR } from '../../electron/host/data-dir.js';
import { appEnv, bridgeCall, tempProfile, waitForGallery, waitUntil } from './app.js';
import { PACKAGED_ENV } from './runner.js';
import { resolvePackagedApp, startPackaged, type StartedPackaged } from './packaged.js';

/** @electron/fuses' FuseState bytes (its enum is not exported from the package root). */
const ENABLE = 49;
const DISABLE = 48;

/** The installer's app (`npm run dist -- --dir`): its fuses as electron/build/fuses.ts sets them, and it starts. */
const given = process.env[PACKAGED_ENV];
if (given === undefined || given === '')
  throw new Error(`${PACKAGED_ENV} is not set: vitest.electron.config.ts only runs this file when it is.`);
const packaged = resolvePackagedApp(given);
let profile: string;
let started: StartedPackaged;
let window: Page;

/** Run by Node's --require if NODE_OPTIONS were honoured: it leaves a file behind. */
const planted = () => join(profile, 'planted.cjs');
const plantedRan = () => join(profile, 'planted-ran');

beforeAll(async () => {
  profile = await tempProfile();
  await writeFile(planted(), `require('fs').writeFileSync(${JSON.stringify(plantedRan())}, 'ran');\n`);
  // Both are what the fuses refuse: a debugger on the main process, and code preloaded through NODE_OPTIONS.
  const env = { ...appEnv(profile), NODE_OPTIONS: `--require ${JSON.stringify(planted())}` };
  started = await startPackaged(packaged.executable, env, [
    '--inspect=0',
    ...(process.platform === 'linux' ? ['--no-sandbox'] : []),
  ]);
  await waitUntil(
    () => started.browser.contexts().some((c) => c.pages().some((p) => p.url() === 'atelier://app/index.html')),
    'the app window',
    60_000,
  );
  window = started.browser
    .contexts()
    .flatMap((c) => c.pages())
    .find((p) => p.url() === 'atelier://app/index.html')!;
});

afterAll(async () => {
  await started?.stop();
  if (profile !== undefined) await rm(profile, { recursive: true, force: true });
});

describe('the packaged app', () => {
  it('has every fuse set as electron/build/fuses.ts says', async () => {
    const wire = (await getCurrentFuseWire(packaged.fuseTarget)) as unknown as Record<number, number>;
    const states = FUSE_SETTINGS.map((fuse) => ({ fuse: fuse.option, state: wire[fuse.option] }));
    expect(states).toEqual(
      FUSE_SETTINGS.map((fuse) => ({ fuse: fuse.option, state: fuse.enabled ? ENABLE : DISABLE })),
    );
  });

  it('ignores --inspect and NODE_OPTIONS, as those fuses promise', async () => {
    await waitForGallery(window);
    expect(started.output()).not.toMatch(/Debugger listening/);
    expect(existsSync(plantedRan())).toBe(false);
  });

  it('starts with the gallery on its own profile, and its bridge answers', async () => {
    await waitForGallery(window);
    expect(await window.title()).toBe('Atelier');
    const settings = await bridgeCall<{ theme: string }>(window, 'settings.get', {});
    expect(['system', 'dark', 'light']).toContain(settings.theme);
    // The library it opened is the one ATELIER_USER_DATA_DIR named, never the person's own.
    expect(existsSync(join(profile, DATA_SUBDIR, DATABASE_FILE))).toBe(true);
  });
});
