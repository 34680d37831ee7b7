import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { INHERITED_NAMES, globalsSnapshot, patchFor } from '../../fixtures/globals.js';
import { startHarness, type Harness } from './harness.js';

describe('provider ids are looked up as own entries only', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('settings.update refuses every inherited name with invalid_request and leaves Object and Object.prototype alone', async () => {
    h = await startHarness({ providers: [scriptedEntry(createScriptedProvider('scripted'))] });
    const before = globalsSnapshot();
    const settingsBefore = await h.engine.handlers['settings.get']({});
    for (const id of INHERITED_NAMES) {
      const error = await h.engine.handlers['settings.update'](patchFor(id)).catch((e: unknown) => e);
      expect(error, id).toBeInstanceOf(AppError);
      expect((error as AppError).code, id).toBe('invalid_request');
      expect((error as AppError).details, id).toEqual({ fields: { [`providers.${id}`]: 'Unknown provider.' } });
    }
    expect(globalsSnapshot()).toBe(before);
    expect((Object as unknown as Record<string, unknown>).concurrency).toBeUndefined();
    expect(await h.engine.handlers['settings.get']({})).toEqual(settingsBefore);
    // A real id still works.
    const updated = await h.engine.handlers['settings.update'](patchFor('scripted'));
    expect(updated.providers['scripted']).toMatchObject({ enabled: false, timeoutMs: 2_000, concurrency: 3 });
  });

  it('a stored settings row naming inherited ids is read without touching them, and jobs.submit refuses them', async () => {
    h = await startHarness({ providers: [scriptedEntry(createScriptedProvider('scripted'))] });
    await h.engine.close();
    const db = new Database(join(h.dataDir, 'atelier.db'));
    const stored =
      '{"providers":{"scripted":{"enabled":true},"constructor":{"enabled":true,"concurrency":9},"__proto__":{"enabled":true,"polluted":1},"toString":{"enabled":true}}}';
    db.prepare(
      "INSERT INTO settings (key, value_json, updated_at) VALUES ('settings', ?, 0) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json",
    ).run(stored);
    db.close();
    const before = globalsSnapshot();
    const engine = await h.open();
    const settings = await engine.handlers['settings.get']({});
    expect(Object.keys(settings.providers)).toEqual(['scripted']);
    expect(Object.getPrototypeOf(settings.providers)).toBe(Object.prototype);
    expect(globalsSnapshot()).toBe(before);
    for (const provider of ['constructor', 'hasownproperty', 'valueof']) {
      const error = await engine.handlers['jobs.submit']({
        provider,
        prompt: 'a fox',
        width: 64,
        height: 64,
        count: 1,
      }).catch((e: unknown) => e);
      expect((error as AppError).code, provider).toBe('invalid_request');
    }
    expect(globalsSnapshot()).toBe(before);
  });
});
