import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/types.js';
import { customNodesPng } from '../../fixtures/images/custom-comfy.js';
import { importFolder } from './import-helpers.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

const rereadDone = (engine: Engine) =>
  waitFor(async () => {
    const status = await engine.handlers['library.rereadStatus']({});
    return status.state === 'idle' && status.left === 0 ? status : undefined;
  }, 20_000);

let h: Harness;
let outside: string;
beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'atelier-rules-'));
});
afterEach(async () => {
  await h?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe("a person's own ComfyUI nodes", () => {
  it('are read once Settings names them: the files are re-read, and later imports use the rules too', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    mkdirSync(join(outside, 'out'));
    writeFileSync(join(outside, 'out', 'heron.png'), await customNodesPng('a heron in fog', 10));
    expect((await importFolder(h.engine, join(outside, 'out'))).status).toBe('completed');
    await rereadDone(h.engine);
    // Found by the graph's raw text, but its prompt is not known: no reader knows the node.
    const before = (await h.engine.handlers['jobs.list']({ view: 'active', search: 'heron', limit: 5 })).items;
    expect(before.map((j) => j.prompt)).toEqual(['']);

    const rules = [
      { classType: 'StudioPromptDeck', input: 'card', field: 'prompt' as const },
      { classType: 'StudioSeedDial', input: 'dial', field: 'seed' as const },
    ];
    const saved = await h.engine.handlers['settings.update']({ library: { comfyNodeRules: rules } });
    expect(saved.library.comfyNodeRules).toEqual(rules);
    const [job] = await waitFor(async () => {
      const { items } = await h.engine.handlers['jobs.list']({ view: 'active', search: 'heron', limit: 5 });
      return items[0]?.prompt === 'a heron in fog' ? items : undefined;
    });
    expect(job!.prompt).toBe('a heron in fog');
    expect(job!.images[0]!.seed).toBe(424242);

    // A new file is read with the rules from the start.
    writeFileSync(join(outside, 'out', 'egret.png'), await customNodesPng('an egret at dawn', 40));
    expect((await importFolder(h.engine, join(outside, 'out'))).status).toBe('completed');
    const found = await waitFor(async () => {
      const { items } = await h.engine.handlers['jobs.list']({ view: 'active', search: 'egret', limit: 5 });
      return items[0]?.prompt === 'an egret at dawn' ? items : undefined;
    });
    expect(found[0]!.prompt).toBe('an egret at dawn');
    // Read right at import: nothing was left for the re-reader to do.
    expect((await h.engine.handlers['library.rereadStatus']({})).left).toBe(0);
  });

  it('refuses a rule that names no node class or an unknown setting, and keeps the ones saved', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const rule = { classType: 'StudioPromptDeck', input: 'card', field: 'prompt' as const };
    await h.engine.handlers['settings.update']({ library: { comfyNodeRules: [rule] } });
    const { SettingsPatch } = await import('../../../shared/contract.js');
    expect(SettingsPatch.safeParse({ library: { comfyNodeRules: [{ ...rule, classType: ' ' }] } }).success).toBe(false);
    expect(SettingsPatch.safeParse({ library: { comfyNodeRules: [{ ...rule, field: 'vae' }] } }).success).toBe(false);
    await h.engine.close({ graceMs: 0 });
    const engine = await h.open();
    expect((await engine.handlers['settings.get']({})).library.comfyNodeRules).toEqual([rule]);
  });
});
