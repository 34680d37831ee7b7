import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectDiagnostics, diagnosticsReport, type DiagnosticsFacts } from '../../../electron/desktop/diagnostics.js';
import { createEngine } from '../../../electron/engine/create-engine.js';
import type { Engine } from '../../../electron/engine/types.js';
import { solidPng } from '../../fakes/scripted-provider.js';
import { memoryKeyring, waitFor, waitForStatus } from '../../integration/engine/harness.js';

const about: Omit<DiagnosticsFacts, 'library' | 'dataDir'> = {
  app: { name: 'Atelier', version: '1.2.3', packaged: true },
  versions: { electron: '45.5.0', chrome: '142.0.7444.52', node: '22.20.0' },
  os: { platform: 'linux', release: '6.8.0-45-generic', arch: 'x64' },
  logsDir: '/home/me/.config/Atelier/logs',
};

// Distinctive enough that finding one in the report would mean it leaked, not a coincidence of common letters.
const words = fc.stringMatching(/^[A-Za-z0-9 ,.'!?-]{12,60}$/).filter((s) => new Set(s).size >= 6 && s.trim() === s);

describe('Help → Copy diagnostics', () => {
  let root: string;
  let dir: string;
  let engine: Engine;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'atelier-diag-'));
    dir = join(root, 'data');
    engine = await createEngine(
      {
        dataDir: dir,
        keyring: memoryKeyring(),
      },
      {
        orphanGraceMs: 0,
        housekeepingDelayMs: 0,
        maintenanceIntervalMs: 0,
      },
    );
  });
  afterAll(async () => {
    await engine.close({ graceMs: 0 });
    await rm(root, { recursive: true, force: true });
  });

  it('says the versions, OS, folders and the library counts and sizes', async () => {
    const { job } = await engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'a lantern',
      width: 64,
      height: 64,
      count: 2,
    });
    await waitForStatus(engine, job.id, ['succeeded']);
    await engine.handlers['jobs.trash']({ ids: [job.id] });
    const folder = join(root, 'outputs');
    await mkdir(folder);
    await writeFile(join(folder, 'kite.png'), await solidPng(32, 32));
    await engine.handlers['library.import']({ paths: [folder], mode: 'link', watch: false });
    await waitFor(async () =>
      (await engine.handlers['library.imports']({})).items.find((item) => item.status === 'completed'),
    );
    await engine.handlers['settings.update']({
      library: { comfyNodeRules: [{ classType: 'StudioPromptDeck', input: 'card', field: 'prompt' }] },
    });
    const stats = await engine.handlers['jobs.stats']({});
    const report = await collectDiagnostics({ ...about, dataDir: dir }, engine.handlers);
    expect(report.split('\n')).toEqual([
      'Atelier 1.2.3',
      'Electron 45.5.0 · Chrome 142.0.7444.52 · Node 22.20.0',
      'OS linux 6.8.0-45-generic (x64)',
      `Data folder: ${dir}`,
      'Logs folder: /home/me/.config/Atelier/logs',
      'Library: 2 jobs, 3 images, 1 imported, 1 in the trash, 0 files missing',
      expect.stringMatching(new RegExp(`^Database: [\\d.]+ KB \\(${stats.databaseBytes} bytes\\)$`)),
      expect.stringMatching(new RegExp(`^Media: [\\d.]+ (B|KB) \\(${stats.mediaBytes} bytes\\)$`)),
      expect.stringMatching(/^Settings re-read: \d+ imported files still to re-read$/),
      'ComfyUI node rules: StudioPromptDeck.card → prompt',
    ]);
    expect(stats.mediaBytes).toBeGreaterThan(0);
  });

  it('never carries a provider secret or a prompt the library holds', async () => {
    await fc.assert(
      fc.asyncProperty(words, words, words, async (secret, prompt, negative) => {
        await engine.handlers['settings.update']({
          providers: { openai: { apiKey: secret }, a1111: { username: 'artist', password: secret } },
        });
        await engine.handlers['jobs.submit']({
          provider: 'builtin',
          prompt,
          negativePrompt: negative,
          width: 64,
          height: 64,
          count: 1,
        });
        const report = await collectDiagnostics({ ...about, dataDir: dir }, engine.handlers);
        expect(report).not.toContain(secret);
        expect(report).not.toContain(prompt);
        expect(report).not.toContain(negative);
      }),
      { numRuns: 15 },
    );
  });

  it('marks a development build', () => {
    const library = {
      jobs: 0,
      images: 0,
      imported: 0,
      trashed: 0,
      databaseBytes: 0,
      mediaBytes: 0,
      missingFiles: 0,
      rereadLeft: 0,
      comfyNodeRules: [],
    };
    expect(
      diagnosticsReport({ ...about, app: { ...about.app, packaged: false }, dataDir: '/d', library }).split('\n')[0],
    ).toBe('Atelier 1.2.3 (development)');
  });
});
