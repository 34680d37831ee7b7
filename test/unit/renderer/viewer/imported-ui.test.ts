import { textOnlyOperations } from '../../../../shared/contract.js';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImportedMetadata, JobDetail, ProviderInfo } from '../../../../shared/contract';
import { createDesktopApi } from '../../../../renderer/src/api/desktop-api';
import { createHttpApi } from '../../../../renderer/src/api/http-api';
import { ImportedDetails, RAW_PREVIEW_CHARS } from '../../../../renderer/src/viewer/ImportedDetails';
import { keyToCommand } from '../../../../renderer/src/common/keyboard';
import { jobTitle, thumbSrc } from '../../../../renderer/src/common/thumbs';
import { DEFAULT_FILTERS, matchesFilters, toListQuery } from '../../../../renderer/src/store/filters';
import { createAppStore } from '../../../../renderer/src/store/store';
import { AppProvider } from '../../../../renderer/src/store/context';
import type { AtelierBridge } from '../../../../shared/bridge';
import { AppError } from '../../../../shared/errors';
import { fakeApi, makeJob } from '../helpers';

describe('the Source filter', () => {
  it('sends ListQuery.source, and places a job arriving by event by its source', () => {
    expect(toListQuery({ ...DEFAULT_FILTERS, source: 'comfyui' }).source).toBe('comfyui');
    expect('source' in toListQuery(DEFAULT_FILTERS)).toBe(false);
    const filters = { ...DEFAULT_FILTERS, source: 'a1111' as const };
    expect(matchesFilters(makeJob({ source: 'a1111' }), filters)).toBe(true);
    expect(matchesFilters(makeJob({ source: 'comfyui' }), filters)).toBe(false);
    expect(matchesFilters(makeJob({ source: 'atelier' }), filters)).toBe(false);
  });
});

describe('cards of imported images', () => {
  const api = { mediaUrl: (kind: string, id: string) => `/media/${kind}/${id}` } as Parameters<typeof thumbSrc>[0];
  it('ask for no thumbnail while it is being made, and for it once the job is announced with it', () => {
    expect(thumbSrc(api, { id: 'i1', thumbPending: true })).toBeNull();
    expect(thumbSrc(api, { id: 'i1' })).toBe('/media/thumb/i1');
  });
  it('are named by the prompt, else by the file name', () => {
    expect(jobTitle({ prompt: 'a fox', path: '/o/a.png' })).toBe('a fox');
    expect(jobTitle({ prompt: ' ', path: '/home/me/outputs/plain-0.png' })).toBe('plain-0.png');
    expect(jobTitle({ prompt: '', path: 'C:\\Users\\me\\out\\b.webp' })).toBe('b.webp');
    expect(jobTitle({ prompt: '' })).toBe('Untitled image');
  });
});

describe('Ctrl/Cmd+I', () => {
  it('opens the import dialog from anywhere, a text field too; Shift or Alt with it does not', () => {
    const key = (over: Partial<Parameters<typeof keyToCommand>[0]>) => ({
      key: 'i',
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      inTextField: false,
      ...over,
    });
    expect(keyToCommand(key({ ctrlKey: true }), 'other')).toBe('import');
    expect(keyToCommand(key({ metaKey: true, key: 'I', inTextField: true }), 'composer')).toBe('import');
    expect(keyToCommand(key({ ctrlKey: true, shiftKey: true }), 'other')).toBeNull();
    expect(keyToCommand(key({ ctrlKey: true, altKey: true }), 'grid')).toBeNull();
    // Plain I (no Ctrl/Cmd) is Use as input, not import.
    expect(keyToCommand(key({}), 'grid')).toBe('useAsInput');
  });
});

const CAPS: ProviderInfo['capabilities'] = {
  sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[512, 512]] },
  maxCount: 4,
  seed: true,
  negativePrompt: true,
  maxPartialImages: 0,
  outputFormats: ['png'],
  operations: textOnlyOperations('text only'),
  steps: { min: 1, max: 150, default: 20 },
};
const provider = (id: string, name: string, enabled: boolean): ProviderInfo => ({
  id,
  name,
  enabled,
  configured: true,
  kind: 'builtin',
  concurrency: 1,
  health: { state: 'unknown', running: [] },
  capabilities: CAPS,
  models: [],
  status: { state: 'ready' },
});

function importedDetail(provider: string): JobDetail {
  const job = makeJob({ provider, source: 'a1111', prompt: 'a moth', width: 64, height: 48 });
  return {
    ...job,
    request: { provider, prompt: 'a moth', negativePrompt: 'dust', width: 64, height: 48, count: 1, steps: 30 },
    cancelRequested: false,
    events: [],
  };
}

describe('Reuse settings of an imported image', () => {
  it('whose tool is not turned on here: the settings go to the chosen provider, fitted to it, and a toast says so', () => {
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    store.setState({ providers: [provider('builtin', 'Built-in', true), provider('a1111', 'AUTOMATIC1111', false)] });
    store.getState().reuseSettings(importedDetail('a1111'));
    expect(store.getState().draft).toMatchObject({
      provider: 'builtin',
      prompt: 'a moth',
      negativePrompt: 'dust',
      steps: 30,
      width: 512,
      height: 512,
    });
    expect(store.getState().toasts.map((t) => t.message)).toEqual([
      'AUTOMATIC1111 is not turned on, so these settings are set up for Built-in. Turn it on in Settings to use it.',
    ]);
  });

  it('whose tool is on: its own provider and settings, no toast', () => {
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    store.setState({ providers: [provider('builtin', 'Built-in', true), provider('a1111', 'AUTOMATIC1111', true)] });
    store.getState().reuseSettings(importedDetail('a1111'));
    expect(store.getState().draft).toMatchObject({ provider: 'a1111', width: 64, height: 48 });
    expect(store.getState().toasts).toEqual([]);
  });
});

describe('Retry of an imported image', () => {
  function setup(prompt: string) {
    const detail = {
      ...importedDetail('builtin'),
      source: 'novelai' as const,
      request: {
        provider: 'builtin',
        prompt,
        width: 512,
        height: 512,
        count: 1,
        seed: 1234,
        sampler: 'k_euler_ancestral',
      },
    };
    const fake = fakeApi({
      'jobs.retry': async () => {
        throw new AppError('invalid_request', 'The built-in generator has no samplers to choose from.');
      },
      'jobs.get': async () => detail,
      'jobs.submit': async (input) => ({
        job: { ...detail, id: 'new', source: 'atelier', request: input },
        created: true,
      }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    store.setState({ providers: [provider('builtin', 'Built-in', true)] });
    store.getState().applyJobChanged(detail);
    return { store, fake, detail };
  }

  it('whose settings the provider refuses as they are: the composer fits them and generates it again', async () => {
    const { store, fake, detail } = setup('a cat knight');
    await store.getState().retry(detail.id);
    const submitted = fake.calls.find((c) => c.channel === 'jobs.submit')?.input as Record<string, unknown>;
    expect(submitted).toMatchObject({ provider: 'builtin', prompt: 'a cat knight', seed: 1234 });
    expect(submitted.sampler).toBeUndefined();
    expect(store.getState().toasts.map((t) => t.message)).toEqual([
      'The built-in generator has no samplers to choose from. Generating it again with Built-in, its settings fitted to it.',
    ]);
  });

  it('without a prompt: nothing is sent, and the composer says what is missing', async () => {
    const { store, fake, detail } = setup('');
    await store.getState().retry(detail.id);
    expect(fake.calls.map((c) => c.channel)).not.toContain('jobs.submit');
    expect(store.getState().fieldErrors.prompt).toBe('Write a prompt.');
    expect(store.getState().toasts.at(-1)?.kind).toBe('error');
  });
});

const METADATA: ImportedMetadata = {
  scheduler: 'karras',
  modelHash: '6ce0161689',
  loras: [{ name: 'inkwash', weight: 0.8 }],
  denoise: 0.55,
  distilledGuidance: 3.5,
  passes: [
    { role: 'refiner', classType: 'KSamplerAdvanced', settings: { model: 'refiner.safetensors', steps: 5 } },
    { role: 'upscale', classType: 'UltimateSDUpscale', settings: { denoise: 0.2 } },
  ],
  raw: [
    { key: 'parameters', text: 'a moth\nSteps: 30' },
    { key: 'prompt', text: `graph ${'x'.repeat(RAW_PREVIEW_CHARS + 50)}` },
  ],
  problems: [],
  locations: [
    { path: '/home/me/outputs/a.png', missing: false },
    { path: '/mnt/old/a.png', missing: true },
  ],
  mode: 'link',
};

describe('the details of an imported image', () => {
  const fake = fakeApi({});
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  const html = renderToStaticMarkup(
    createElement(AppProvider, {
      store,
      api: fake.api,
      children: createElement(ImportedDetails, { source: 'a1111', metadata: METADATA }),
    }),
  );
  it('show the source, every location with the missing one marked, the mode, scheduler, model hash, LoRAs and denoise', () => {
    expect(html).toContain('<dd>AUTOMATIC1111</dd>');
    expect(html).toMatch(/<li class=""><span class="mono">\/home\/me\/outputs\/a.png<\/span><\/li>/);
    expect(html).toMatch(
      /<li class="missing"><span class="mono">\/mnt\/old\/a.png<\/span><span class="badge warn">missing<\/span><\/li>/,
    );
    expect(html).toContain('Where it is (linked)');
    for (const text of ['karras', '6ce0161689', 'inkwash', '× 0.8', '0.55']) expect(html).toContain(text);
  });
  it('show Flux guidance beside the CFG, and the later passes in the order they ran', () => {
    expect(html).toContain('<dt>Flux guidance</dt><dd>3.5</dd>');
    expect(html).toMatch(
      /<ol class="passes" aria-label="Later passes"><li title="KSamplerAdvanced">Refiner<span class="muted"> · refiner.safetensors · 5 steps<\/span><\/li><li title="UltimateSDUpscale">Upscale<span class="muted"> · denoise 0.2<\/span><\/li><\/ol>/,
    );
  });
  it('list every text under where it sits in the file, each copyable, cutting a long one on screen with Show all', () => {
    expect(html).toContain('Technical: 2 texts in the file');
    expect(html).toContain('aria-label="Text: PNG text “parameters”">a moth\nSteps: 30</pre>');
    expect(html).toContain('aria-label="Copy PNG text “parameters”"');
    expect(html).toContain('Copy all');
    const long = /aria-label="Text: PNG text “prompt”">([^<]*)<\/pre>/.exec(html)![1]!;
    expect(long).toHaveLength(RAW_PREVIEW_CHARS + 1);
    expect(long.endsWith('…')).toBe(true);
    expect(html.match(/Show all/g)).toHaveLength(1);
  });
});

describe('dropped files', () => {
  it('the desktop asks the preload for their paths; the browser has none to give', () => {
    const given: unknown[] = [];
    const bridge = {
      pathsForFiles: (files: readonly unknown[]) => (given.push(...files), ['/home/me/outputs']),
    } as unknown as AtelierBridge;
    const file = { name: 'outputs' } as unknown as File;
    expect(createDesktopApi(bridge).pathsForFiles([file])).toEqual(['/home/me/outputs']);
    expect(given).toEqual([file]);
    const http = createHttpApi({
      fetch: async () => ({ ok: true, status: 200, json: async () => ({}) }),
      eventSource: () => {
        throw new Error('unused');
      },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    });
    expect(http.pathsForFiles([file])).toEqual([]);
  });
});
