import { describe, expect, it } from 'vitest';
import { textOnlyOperations, type JobDetail, type Preset, type ProviderInfo } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { buildRequest, DEFAULT_DRAFT } from '../../../../renderer/src/composer/composer';
import { batchHint, planBatch } from '../../../../renderer/src/composer/composer-batch';
import { healthText, instanceLabel, isAddedInstance, runningText } from '../../../../renderer/src/settings/instances';
import { presetFromDraft } from '../../../../renderer/src/composer/composer-presets';
import { targetOptions } from '../../../../renderer/src/composer/composer-targets';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, makeJob } from '../helpers';

const CAPS: ProviderInfo['capabilities'] = {
  sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[512, 512]] },
  maxCount: 10,
  seed: true,
  negativePrompt: true,
  maxPartialImages: 0,
  outputFormats: ['png'],
  operations: textOnlyOperations('text only'),
  steps: { min: 1, max: 150, default: 20 },
  guidance: { min: 0, max: 30, default: 7 },
};
const OPENAI_CAPS: ProviderInfo['capabilities'] = {
  ...CAPS,
  sizes: {
    min: 1024,
    max: 1536,
    multipleOf: 16,
    fixed: [
      [1024, 1024],
      [1536, 1024],
      [1024, 1536],
    ],
    presets: [[1024, 1024]],
  },
  seed: false,
  negativePrompt: false,
  steps: undefined,
  guidance: undefined,
};

function provider(
  id: string,
  kind: ProviderInfo['kind'],
  enabled = true,
  extra: Partial<ProviderInfo> = {},
): ProviderInfo {
  const caps =
    kind === 'openai' ? OPENAI_CAPS : kind === 'a1111' || kind === 'comfyui' ? { ...CAPS, samplers: ['euler'] } : CAPS;
  return {
    id,
    kind,
    name: `${id} server`,
    enabled,
    configured: true,
    concurrency: 1,
    health: { state: 'unknown', running: [] },
    capabilities: caps,
    models: [],
    status: { state: 'ready' },
    ...extra,
  };
}

function submitted(calls: { channel: string; input: unknown }[]) {
  return calls
    .filter((c) => c.channel === 'jobs.submit')
    .map((c) => c.input as { prompt: string; idempotencyKey: string; provider: string });
}

function storeWith(handlers: Parameters<typeof fakeApi>[0] = {}, providers = [provider('builtin', 'builtin')]) {
  let n = 0;
  const created = new Set<string>();
  const fake = fakeApi({
    'jobs.submit': async (input) => {
      const { idempotencyKey, prompt } = input as { idempotencyKey: string; prompt: string };
      const fresh = !created.has(idempotencyKey);
      created.add(idempotencyKey);
      const job = makeJob({ status: 'queued', prompt });
      return { job: { ...job, request: input, cancelRequested: false, events: [] }, created: fresh };
    },
    ...handlers,
  });
  const store = createAppStore({ api: fake.api, makeKey: () => `key-${++n}`, now: () => 0 });
  store.setState({ providers });
  return { store, fake };
}

describe('Generate with alternatives and lines: one job per prompt', () => {
  it('"a {red|blue} fox" and a second line make three jobs, each with its own text and key', async () => {
    const { store, fake } = storeWith();
    store.getState().updateDraft({ prompt: 'a {red|blue} fox\na hare', count: 2 });
    expect(batchHint(3, 2)).toBe('Makes 3 jobs (6 images)');
    await store.getState().submit();
    const sent = submitted(fake.calls);
    expect(sent.map((s) => s.prompt)).toEqual(['a red fox', 'a blue fox', 'a hare']);
    expect(sent.map((s) => s.idempotencyKey)).toEqual(['key-1#1', 'key-1#2', 'key-1#3']);
    expect(store.getState().jobs.liveIds).toHaveLength(3);
    expect(store.getState().toasts.at(-1)?.message).toBe('Queued 3 jobs, one for each prompt.');
  });

  it('a batch cut short by a failure keeps its keys: Generate again queues only the rest', async () => {
    let calls = 0;
    const keys: string[] = [];
    const { store, fake } = storeWith();
    const real = fake.api.call;
    fake.api.call = (async (channel: string, input: unknown) => {
      if (channel === 'jobs.submit') keys.push((input as { idempotencyKey: string }).idempotencyKey);
      if (channel === 'jobs.submit' && ++calls === 2)
        throw new AppError('provider_unavailable', 'Atelier cannot be reached.');
      return (real as (c: string, i: unknown) => Promise<unknown>)(channel, input);
    }) as typeof real;
    store.getState().updateDraft({ prompt: '{one|two|three}' });
    await store.getState().submit();
    expect(store.getState().toasts.map((t) => t.message)).toContain(
      '1 of 3 jobs were queued before that; Generate again queues only the rest.',
    );
    await store.getState().submit();
    // The first job's key went out twice: the engine answers "already queued" and adds nothing.
    expect(keys).toEqual(['key-1#1', 'key-1#2', 'key-1#1', 'key-1#2', 'key-1#3']);
    expect(store.getState().toasts.at(-1)?.message).toBe('Queued 2 new jobs; 1 was already queued.');
  });

  it('an unclosed brace or too many prompts: nothing is sent, the prompt field says where and why', async () => {
    const { store, fake } = storeWith();
    store.getState().updateDraft({ prompt: 'a {red|blue fox' });
    await store.getState().submit();
    expect(store.getState().fieldErrors.prompt).toBe(
      'Line 1, column 3: This { is never closed. Add a } or write \\{ for a brace of its own.',
    );
    store.getState().updateDraft({ prompt: '{1|2|3|4|5|6|7|8|9|10|11} {1|2|3|4|5|6|7|8|9|10}' });
    await store.getState().submit();
    expect(store.getState().fieldErrors.prompt).toBe(
      'This makes 110 prompts; at most 100 go at once. Remove some alternatives or lines.',
    );
    expect(submitted(fake.calls)).toEqual([]);
  });

  it('a single plain prompt is one job with the key as before, and no hint', async () => {
    const { store, fake } = storeWith();
    store.getState().updateDraft({ prompt: 'a lighthouse' });
    expect(planBatch(store.getState().draft)).toEqual({ ok: true, prompts: ['a lighthouse'] });
    expect(batchHint(1, 4)).toBeNull();
    await store.getState().submit();
    expect(submitted(fake.calls)).toMatchObject([{ prompt: 'a lighthouse', idempotencyKey: 'key-1' }]);
  });
});

const PRESET: Preset = {
  id: '00000000-0000-7000-8000-00000000aaaa',
  name: 'Cinematic',
  template: 'cinematic still of {prompt}, film grain',
  negativePrompt: 'cartoon',
  steps: 30,
  createdAt: 1,
  updatedAt: 1,
  source: 'styles.csv',
};

describe('presets', () => {
  it('applying one sets its settings, and its template wraps each prompt typed', async () => {
    const { store, fake } = storeWith({ 'presets.list': async () => ({ items: [PRESET] }) });
    await store.getState().loadPresets();
    store.getState().applyPreset(PRESET.id);
    expect(store.getState().draft).toMatchObject({ steps: 30, negativePrompt: 'cartoon', templateName: 'Cinematic' });
    store.getState().updateDraft({ prompt: 'a {fox|hare}' });
    await store.getState().submit();
    expect(submitted(fake.calls).map((s) => s.prompt)).toEqual([
      'cinematic still of a fox, film grain',
      'cinematic still of a hare, film grain',
    ]);
    store.getState().clearTemplate();
    expect(planBatch(store.getState().draft)).toEqual({ ok: true, prompts: ['a fox', 'a hare'] });
    // A template without {prompt} is a fixed prompt (shared/prompt-template.ts): one job, whatever is typed.
    expect(planBatch({ prompt: 'a {fox|hare}', template: 'a still life with pears' })).toEqual({
      ok: true,
      prompts: ['a still life with pears'],
    });
    expect(planBatch({ prompt: '', template: 'night sky over {prompt}' })).toEqual({ ok: true, prompts: [] });
  });

  it('save current sends the composer’s settings; a prompt holding {prompt} is saved as the template', async () => {
    const saved: unknown[] = [];
    const { store } = storeWith({
      'presets.save': async (input) => (
        saved.push(input),
        { preset: { ...PRESET, ...(input as object), id: PRESET.id } }
      ),
    });
    store.getState().updateDraft({ prompt: 'ink drawing of {prompt}', steps: 12, negativePrompt: 'color' });
    expect(await store.getState().savePreset('Ink')).toBe(true);
    expect(saved).toEqual([
      {
        name: 'Ink',
        provider: 'builtin',
        width: 512,
        height: 512,
        steps: 12,
        negativePrompt: 'color',
        template: 'ink drawing of {prompt}',
      },
    ]);
    expect(store.getState().presets?.map((p) => p.name)).toEqual(['Ink']);
    expect(presetFromDraft({ ...DEFAULT_DRAFT, prompt: 'a plain prompt' }, 'Plain')).not.toHaveProperty('template');
  });

  it('delete removes it from the menu; the backend not answering yet shows its message, not a crash', async () => {
    const { store } = storeWith({
      'presets.list': async () => {
        throw new AppError('internal', 'Presets are not ready yet.');
      },
      'presets.delete': async () => ({ updated: 1 }),
    });
    await store.getState().loadPresets();
    expect(store.getState().presetsError).toBe('Presets are not ready yet.');
    store.setState({ presets: [PRESET] });
    expect(await store.getState().deletePreset(PRESET.id)).toBe(true);
    expect(store.getState().presets).toEqual([]);
  });

  it('importing styles.csv sends the file’s text and says what came in and what was skipped', async () => {
    const sent: unknown[] = [];
    const { store } = storeWith({
      'presets.importStyles': async (input) => (
        sent.push(input),
        { imported: 2, updated: 1, skipped: [{ line: 4, reason: 'no name' }] }
      ),
      'presets.list': async () => ({ items: [PRESET] }),
    });
    expect(
      await store
        .getState()
        .importStyles('name,prompt,negative_prompt\nCinematic,"cinematic still of {prompt}",cartoon\n'),
    ).toBe(true);
    expect(sent).toEqual([{ csv: 'name,prompt,negative_prompt\nCinematic,"cinematic still of {prompt}",cartoon\n' }]);
    expect(store.getState().toasts.at(-1)?.message).toBe('Imported 2 styles, updated 1. Skipped 1: line 4, no name.');
    expect(store.getState().presets).toEqual([PRESET]);
  });
});

describe('prompt history: ↑ and ↓ in the prompt box', () => {
  it('↑ walks back through past prompts, ↓ comes forward to what was typed; typing ends the walk', async () => {
    const { store, fake } = storeWith({
      'prompts.history': async () => ({
        items: ['a red fox', 'a tall lighthouse', 'a moth'].map((prompt, i) => ({ prompt, usedAt: i, uses: 1 })),
      }),
    });
    store.getState().updateDraft({ prompt: 'half typed' });
    expect(await store.getState().recallPrompt(1)).toBe(true);
    expect(store.getState().draft.prompt).toBe('a red fox');
    await store.getState().recallPrompt(1);
    await store.getState().recallPrompt(1);
    expect(store.getState().draft.prompt).toBe('a moth');
    expect(await store.getState().recallPrompt(1)).toBe(false);
    expect(store.getState().draft.prompt).toBe('a moth');
    await store.getState().recallPrompt(-1);
    await store.getState().recallPrompt(-1);
    await store.getState().recallPrompt(-1);
    expect(store.getState().draft.prompt).toBe('half typed');
    expect(await store.getState().recallPrompt(-1)).toBe(false);
    expect(fake.calls.filter((c) => c.channel === 'prompts.history')).toHaveLength(1);
    // Typing ends the walk: the next ↑ asks again (a prompt just generated is in it now).
    store.getState().updateDraft({ prompt: '' });
    await store.getState().recallPrompt(1);
    expect(fake.calls.filter((c) => c.channel === 'prompts.history')).toHaveLength(2);
  });

  it('a past prompt equal to the box’s text is stepped over', async () => {
    const { store } = storeWith({
      'prompts.history': async () => ({ items: ['same', 'older'].map((prompt) => ({ prompt, usedAt: 0, uses: 1 })) }),
    });
    store.getState().updateDraft({ prompt: 'same' });
    await store.getState().recallPrompt(1);
    expect(store.getState().draft.prompt).toBe('older');
  });

  it('the searchable list asks the engine with the search', async () => {
    const { store, fake } = storeWith({ 'prompts.history': async () => ({ items: [] }) });
    await store.getState().searchPromptHistory('fox');
    await store.getState().searchPromptHistory('  ');
    expect(fake.calls.filter((c) => c.channel === 'prompts.history').map((c) => c.input)).toEqual([
      { search: 'fox', limit: 100 },
      { search: undefined, limit: 100 },
    ]);
  });
});

function jobDetail(request: JobDetail['request'], extra: Partial<JobDetail> = {}): JobDetail {
  return { ...makeJob({ provider: request.provider }), request, cancelRequested: false, events: [], ...extra };
}

describe('Reuse settings onto another kind of provider', () => {
  it('an A1111 image reused with ComfyUI: sampler and schedule translated, the 64-bit limit and CFG kept, nothing to warn', () => {
    const { store } = storeWith({}, [
      provider('builtin', 'builtin'),
      provider('a1111', 'a1111', false),
      provider('comfyui', 'comfyui'),
    ]);
    store.setState((s) => ({ draft: { ...s.draft, provider: 'comfyui' } }));
    store.getState().reuseSettings(
      jobDetail({
        provider: 'a1111',
        prompt: 'a moth',
        width: 512,
        height: 768,
        count: 1,
        sampler: 'DPM++ 2M Karras',
        guidance: 5,
        steps: 28,
        seed: 42,
      }),
    );
    expect(store.getState().draft).toMatchObject({
      provider: 'comfyui',
      sampler: 'dpmpp_2m',
      scheduler: 'karras',
      guidance: 5,
      steps: 28,
      seed: 42,
      seedLocked: true,
      width: 512,
      height: 768,
    });
    expect(store.getState().draftNotes).toBeNull();
  });

  it('an imported A1111 file onto OpenAI: what has no equivalent is listed in the composer', () => {
    const { store } = storeWith({}, [provider('openai', 'openai')]);
    store.setState((s) => ({ draft: { ...s.draft, provider: 'openai' } }));
    const job = jobDetail(
      {
        provider: 'a1111',
        prompt: 'a moth',
        negativePrompt: 'blurry',
        width: 512,
        height: 512,
        count: 1,
        sampler: 'Euler a',
        seed: 7,
      },
      { source: 'a1111' },
    );
    store.getState().reuseSettings(job);
    const state = store.getState();
    expect(state.draft).toMatchObject({ provider: 'openai', width: 1024, height: 1024, seedLocked: false });
    expect(state.draftNotes?.title).toBe('A1111 settings on openai server');
    expect(state.draftNotes?.warnings).toEqual([
      'OpenAI has no sampler choice: Euler a is not used.',
      'OpenAI has no negative prompt: "blurry" is left out.',
      'OpenAI takes no seed: seed 7 is left out, so the image will differ.',
      'OpenAI makes only 1024×1024, 1536×1024, 1024×1536: 512×512 becomes 1024×1024.',
    ]);
    // What the composer would send carries none of them.
    const request = buildRequest(state.draft, OPENAI_CAPS);
    expect(request).not.toHaveProperty('negativePrompt');
    expect(request).not.toHaveProperty('seed');
    expect(request).not.toHaveProperty('sampler');
  });

  it('an imported file’s "Model hash" and "Schedule type" find the server’s own model title and schedule', () => {
    const models = ['v1-5-pruned-emaonly.safetensors [6ce0161689]', 'dreamshaper_8.safetensors [879db523c3]'];
    const { store } = storeWith({}, [provider('a1111', 'a1111', true, { models })]);
    const metadata = {
      modelHash: '879db523c3',
      scheduler: 'Karras',
      raw: [],
      problems: [],
      locations: [],
      mode: 'link' as const,
    };
    store
      .getState()
      .reuseSettings(
        jobDetail(
          { provider: 'a1111', prompt: 'p', width: 512, height: 512, count: 1, model: 'renamed', sampler: 'DPM++ 2M' },
          { source: 'a1111', metadata },
        ),
      );
    expect(store.getState().draft).toMatchObject({
      model: 'dreamshaper_8.safetensors [879db523c3]',
      sampler: 'DPM++ 2M',
      scheduler: 'Karras',
    });
  });

  it('choosing another kind in the composer carries the sampler over, naming one without a match', () => {
    const { store } = storeWith({}, [provider('a1111', 'a1111'), provider('comfyui', 'comfyui')]);
    store.setState((s) => ({ draft: { ...s.draft, provider: 'a1111', sampler: 'DPM++ 2M', scheduler: 'Karras' } }));
    store.getState().chooseProvider('comfyui');
    expect(store.getState().draft).toMatchObject({ provider: 'comfyui', sampler: 'dpmpp_2m', scheduler: 'karras' });
    store.setState((s) => ({ draft: { ...s.draft, provider: 'a1111', sampler: 'PLMS', scheduler: '' } }));
    store.getState().chooseProvider('comfyui');
    expect(store.getState().draft.sampler).toBe('');
    expect(store.getState().draftNotes?.warnings).toEqual([
      "ComfyUI has no PLMS sampler: ComfyUI's default sampler is used.",
    ]);
    store.getState().dismissNotes();
    expect(store.getState().draftNotes).toBeNull();
  });

  it('sampler and schedule are sent only to providers with a sampler choice', () => {
    const draft = { ...DEFAULT_DRAFT, prompt: 'p', sampler: 'euler', scheduler: 'karras' };
    expect(buildRequest(draft, { ...CAPS, samplers: ['euler'] })).toMatchObject({
      sampler: 'euler',
      scheduler: 'karras',
    });
    expect(buildRequest(draft, CAPS)).not.toHaveProperty('sampler');
    expect(buildRequest(draft, CAPS)).not.toHaveProperty('scheduler');
  });
});

describe('several servers of one kind', () => {
  const providers = [
    provider('builtin', 'builtin'),
    provider('comfyui', 'comfyui'),
    provider('comfyui-2', 'comfyui', true, { name: 'Studio GPU' }),
  ];

  it('the composer offers "any ComfyUI server" once a kind has two, and sends any:comfyui with that kind’s limits', async () => {
    expect(targetOptions(providers).map((o) => o.value)).toEqual(['builtin', 'any:comfyui', 'comfyui', 'comfyui-2']);
    expect(targetOptions(providers.slice(0, 2)).map((o) => o.value)).toEqual(['builtin', 'comfyui']);
    const { store, fake } = storeWith({}, providers);
    store.getState().chooseProvider('any:comfyui');
    store.getState().updateDraft({ prompt: 'a fox' });
    await store.getState().submit();
    expect(submitted(fake.calls)).toMatchObject([{ provider: 'any:comfyui', prompt: 'a fox' }]);
  });

  it('after a reload, a composer set to any:comfyui stays so while a ComfyUI server exists', async () => {
    const { store } = storeWith(
      { 'settings.get': async () => ({}), 'providers.list': async () => ({ providers }) },
      [],
    );
    store.setState((s) => ({ draft: { ...s.draft, provider: 'any:comfyui' } }));
    await store.getState().loadSettings();
    expect(store.getState().draft.provider).toBe('any:comfyui');
    const { store: other } = storeWith(
      { 'settings.get': async () => ({}), 'providers.list': async () => ({ providers: providers.slice(0, 1) }) },
      [],
    );
    other.setState((s) => ({ draft: { ...s.draft, provider: 'any:comfyui' } }));
    await other.getState().loadSettings();
    expect(other.getState().draft.provider).toBe('builtin');
  });

  it('the queue names the server running a job, else the provider or kind it asked for', () => {
    expect(instanceLabel({ provider: 'any:comfyui', instance: 'comfyui-2' }, providers)).toBe('Studio GPU');
    expect(instanceLabel({ provider: 'any:comfyui' }, providers)).toBe('any ComfyUI server');
    expect(instanceLabel({ provider: 'comfyui' }, providers)).toBe('comfyui server');
  });

  it('settings: health with its time, what runs now, and Remove only for added servers', () => {
    const now = 10_000_000;
    expect(healthText({ state: 'up', since: now - 120_000, running: [] }, now)).toBe('Up · seen 2 min ago');
    expect(healthText({ state: 'down', since: now - 10_000, nextProbeAt: now + 39_500, running: [] }, now)).toBe(
      'Down · since just now · next try in 40 s',
    );
    expect(healthText({ state: 'unknown', running: [] }, now)).toBe('Not checked yet');
    expect(runningText([], () => undefined)).toBe('Idle');
    expect(runningText(['j1', 'j2'], (id) => (id === 'j1' ? 'a red fox' : undefined))).toBe(
      'Running “a red fox” and 1 more',
    );
    expect(isAddedInstance(providers[1]!)).toBe(false);
    expect(isAddedInstance(providers[2]!)).toBe(true);
  });
});
