import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  a1111ToComfy,
  comfyToA1111,
  A1111_SCHEDULE_TYPES,
  COMFY_SCHEDULERS,
} from '../../../shared/mapping/samplers.js';
import { mapSettings, matchModel, modelStem } from '../../../shared/mapping/settings.js';

describe('A1111 sampler and schedule type → ComfyUI sampler_name and scheduler', () => {
  it.each([
    // Before 1.9, A1111 wrote the schedule into the name.
    ['DPM++ 2M Karras', undefined, 'dpmpp_2m', 'karras'],
    ['DPM++ SDE Karras', undefined, 'dpmpp_sde', 'karras'],
    ['DPM++ 2M SDE Karras', undefined, 'dpmpp_2m_sde', 'karras'],
    ['DPM++ 2M SDE Exponential', undefined, 'dpmpp_2m_sde', 'exponential'],
    ['DPM2 a Karras', undefined, 'dpm_2_ancestral', 'karras'],
    ['LMS Karras', undefined, 'lms', 'karras'],
    // 1.9+: the name alone, with its own "Schedule type"; "Automatic" is the sampler's default.
    ['Euler a', undefined, 'euler_ancestral', 'normal'],
    ['Euler a', 'Automatic', 'euler_ancestral', 'normal'],
    ['Euler', 'Karras', 'euler', 'karras'],
    ['DPM++ 2M', 'Automatic', 'dpmpp_2m', 'karras'],
    ['DPM++ 2M', 'Exponential', 'dpmpp_2m', 'exponential'],
    ['DPM++ 2M SDE', undefined, 'dpmpp_2m_sde', 'exponential'],
    ['DPM++ 3M SDE', 'SGM Uniform', 'dpmpp_3m_sde', 'sgm_uniform'],
    ['DPM2 a', undefined, 'dpm_2_ancestral', 'karras'],
    ['DDIM', undefined, 'ddim', 'ddim_uniform'],
    ['UniPC', undefined, 'uni_pc', 'normal'],
    ['LMS', undefined, 'lms', 'normal'],
    ['Heun', 'Beta', 'heun', 'beta'],
    ['LCM', 'Simple', 'lcm', 'simple'],
    ['dpm++ 2m karras', undefined, 'dpmpp_2m', 'karras'],
    ['DPM++ 2M', 'karras', 'dpmpp_2m', 'karras'],
  ])('%s (%s) → %s + %s, no warning', (sampler, schedule, comfy, scheduler) => {
    expect(a1111ToComfy(sampler, schedule)).toEqual({ sampler: comfy, scheduler, warnings: [] });
  });

  it.each([
    ['PLMS', undefined, undefined, 'ComfyUI has no PLMS sampler'],
    ['Restart', 'Karras', 'karras', 'ComfyUI has no Restart sampler'],
    ['DPM++ 4M Turbo', undefined, undefined, 'DPM++ 4M Turbo'],
    ['Euler', 'Align Your Steps', undefined, '"Align Your Steps" schedule'],
    ['Euler', 'Polyexponential', undefined, '"Polyexponential"'],
  ])('%s (%s) has no equivalent and says so', (sampler, schedule, scheduler, words) => {
    const out = a1111ToComfy(sampler, schedule);
    expect(out.scheduler).toBe(scheduler);
    expect(out.warnings.join(' ')).toContain(words);
  });

  it('DPM++ 2M SDE Heun comes close, and the warning says how it differs', () => {
    const out = a1111ToComfy('DPM++ 2M SDE Heun', undefined);
    expect(out).toMatchObject({ sampler: 'dpmpp_2m_sde', scheduler: 'exponential' });
    expect(out.warnings).toEqual([expect.stringContaining('midpoint solver')]);
  });
});

describe('ComfyUI → A1111', () => {
  it.each([
    ['dpmpp_2m', 'karras', 'DPM++ 2M', 'Automatic'],
    ['dpmpp_2m', 'exponential', 'DPM++ 2M', 'Exponential'],
    ['dpmpp_2m', 'normal', 'DPM++ 2M', 'Normal'],
    ['euler_ancestral', 'normal', 'Euler a', 'Automatic'],
    ['euler_ancestral', 'karras', 'Euler a', 'Karras'],
    ['dpmpp_2m_sde', 'exponential', 'DPM++ 2M SDE', 'Automatic'],
    ['dpmpp_sde', 'karras', 'DPM++ SDE', 'Automatic'],
    ['ddim', 'ddim_uniform', 'DDIM', 'Automatic'],
    ['uni_pc', 'sgm_uniform', 'UniPC', 'SGM Uniform'],
    ['heun', 'beta', 'Heun', 'Beta'],
    ['lms', 'simple', 'LMS', 'Simple'],
    ['dpm_2_ancestral', 'karras', 'DPM2 a', 'Automatic'],
  ])('%s + %s → %s (%s)', (sampler, scheduler, a1111, schedule) => {
    expect(comfyToA1111(sampler, scheduler)).toEqual({ sampler: a1111, scheduler: schedule, warnings: [] });
  });

  it.each([
    ['euler_cfg_pp', 'normal', '"euler_cfg_pp"'],
    ['deis', 'karras', '"deis"'],
    ['euler', 'linear_quadratic', '"linear_quadratic" schedule type'],
    ['dpmpp_2m_sde_gpu', 'karras', 'CPU'],
  ])('%s + %s: what does not carry over is named', (sampler, scheduler, words) => {
    expect(comfyToA1111(sampler, scheduler).warnings.join(' ')).toContain(words);
  });

  it('every ComfyUI name the table has comes back to itself through A1111 (schedules included), or is warned about', () => {
    const samplers = [
      'euler',
      'euler_ancestral',
      'heun',
      'dpm_2',
      'dpm_2_ancestral',
      'lms',
      'dpm_fast',
      'dpm_adaptive',
      'dpmpp_2s_ancestral',
      'dpmpp_sde',
      'dpmpp_2m',
      'dpmpp_2m_sde',
      'dpmpp_3m_sde',
      'ddim',
      'uni_pc',
      'lcm',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...samplers), fc.constantFrom(...COMFY_SCHEDULERS), (sampler, scheduler) => {
        const there = comfyToA1111(sampler, scheduler);
        if (there.warnings.length > 0) {
          expect(scheduler).toBe('linear_quadratic');
          return;
        }
        expect(A1111_SCHEDULE_TYPES).toContain(there.scheduler);
        expect(a1111ToComfy(there.sampler, there.scheduler)).toEqual({ sampler, scheduler, warnings: [] });
      }),
    );
  });
});

describe('mapSettings: one tool’s settings onto another', () => {
  const base = { prompt: 'a fox', width: 512, height: 768, count: 2 };

  it('A1111 → ComfyUI: sampler split, CFG kept as guidance, steps and seed carried, nothing to warn about', () => {
    const out = mapSettings(
      { ...base, sampler: 'DPM++ 2M Karras', guidance: 6.5, steps: 28, seed: 1234, negativePrompt: 'blurry' },
      'a1111',
      'comfyui',
    );
    expect(out).toEqual({
      request: {
        ...base,
        sampler: 'dpmpp_2m',
        scheduler: 'karras',
        guidance: 6.5,
        steps: 28,
        seed: 1234,
        negativePrompt: 'blurry',
      },
      warnings: [],
    });
  });

  it('ComfyUI → A1111: a 64-bit seed is beyond A1111, CFG 0 below its minimum: both named', () => {
    const out = mapSettings(
      { ...base, sampler: 'euler_ancestral', scheduler: 'normal', seed: '18446744073709551615', guidance: 0 },
      'comfyui',
      'a1111',
    );
    expect(out.request).toEqual({ ...base, sampler: 'Euler a', scheduler: 'Automatic', guidance: 1 });
    expect(out.warnings).toEqual([
      'A1111 seeds go up to 4294967295: seed 18446744073709551615 is larger, so a random seed is used.',
      'A1111 takes a CFG scale from 1 to 30: 0 becomes 1.',
    ]);
    // A 32-bit seed goes through untouched.
    expect(mapSettings({ ...base, seed: 4294967295 }, 'comfyui', 'a1111').request.seed).toBe(4294967295);
  });

  it('onto OpenAI: no negative prompt, seed, steps, guidance or sampler; sizes become one it makes', () => {
    const out = mapSettings(
      {
        ...base,
        negativePrompt: 'blurry, low quality',
        seed: 7,
        steps: 30,
        guidance: 7,
        sampler: 'DPM++ 2M',
        scheduler: 'Karras',
      },
      'a1111',
      'openai',
    );
    expect(out.request).toEqual({ prompt: 'a fox', width: 1024, height: 1536, count: 2 });
    expect(out.warnings).toEqual([
      'OpenAI has no sampler choice: DPM++ 2M with Karras is not used.',
      'OpenAI has no negative prompt: "blurry, low quality" is left out.',
      'OpenAI takes no seed: seed 7 is left out, so the image will differ.',
      'OpenAI has no steps setting: 30 is not used.',
      'OpenAI has no guidance (CFG) setting: 7 is not used.',
      'OpenAI makes only 1024×1024, 1536×1024, 1024×1536: 512×768 becomes 1024×1536.',
    ]);
  });

  it('OpenAI → A1111: quality has no equivalent; the size snaps to multiples of 8 within range', () => {
    const out = mapSettings({ prompt: 'x', width: 1535, height: 3000, count: 12, quality: 'high' }, 'openai', 'a1111');
    expect(out.request).toEqual({ prompt: 'x', width: 1536, height: 2048, count: 10 });
    expect(out.warnings).toEqual([
      'A1111 needs sizes from 64 to 2048 in steps of 8: 1535×3000 becomes 1536×2048.',
      'A1111 makes at most 10 at once: 12 becomes 10.',
      'A1111 has no quality "high": it is left out.',
    ]);
  });

  it('the target’s own capabilities win over the kind’s usual ones', () => {
    const caps = {
      sizes: { min: 256, max: 1024, multipleOf: 64, presets: [] },
      maxCount: 4,
      steps: { min: 1, max: 50, default: 20 },
      seed: true,
      negativePrompt: true,
      outputFormats: ['png' as const],
    };
    const out = mapSettings({ ...base, steps: 80, guidance: 5 }, 'comfyui', 'comfyui', { capabilities: caps });
    expect(out.request).toMatchObject({ width: 512, height: 768, steps: 50 });
    expect(out.request.guidance).toBeUndefined();
    expect(out.warnings).toEqual([
      'ComfyUI takes steps from 1 to 50: 80 becomes 50.',
      'ComfyUI has no guidance (CFG) setting: 5 is not used.',
    ]);
  });

  it('same kind, valid settings: the same settings, no warnings', () => {
    fc.assert(
      fc.property(
        fc.record({
          prompt: fc.string(),
          width: fc.integer({ min: 8, max: 256 }).map((n) => n * 8),
          height: fc.integer({ min: 8, max: 256 }).map((n) => n * 8),
          count: fc.integer({ min: 1, max: 10 }),
          steps: fc.integer({ min: 1, max: 150 }),
          guidance: fc.integer({ min: 1, max: 30 }),
          seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
          sampler: fc.constantFrom('Euler a', 'DPM++ 2M'),
        }),
        (settings) => {
          expect(mapSettings(settings, 'a1111', 'a1111')).toEqual({ request: settings, warnings: [] });
        },
      ),
    );
  });

  it('any settings onto any kind: every field dropped or changed is named in a warning', () => {
    const kinds = ['builtin', 'openai', 'a1111', 'comfyui'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.constantFrom(...kinds),
        fc.record(
          {
            prompt: fc.constant('p'),
            negativePrompt: fc.constantFrom('bad hands', 'blurry'),
            width: fc.integer({ min: 64, max: 4096 }),
            height: fc.integer({ min: 64, max: 4096 }),
            count: fc.integer({ min: 1, max: 10 }),
            steps: fc.integer({ min: 1, max: 150 }),
            guidance: fc.integer({ min: 0, max: 30 }),
            seed: fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }), fc.constant('18446744073709551615')),
            sampler: fc.constantFrom('DPM++ 2M Karras', 'PLMS', 'euler', 'deis'),
            quality: fc.constantFrom('low', 'high'),
          },
          { requiredKeys: ['prompt', 'width', 'height', 'count'] },
        ),
        (from, to, settings) => {
          const { request, warnings } = mapSettings(settings, from, to);
          if (from === to) expect(request.sampler).toBe(settings.sampler);
          // One warning per field changed or dropped (a size is one), and one for a sampler that found no match.
          const changed = (Object.keys(settings) as (keyof typeof settings)[]).filter(
            (k) => k !== 'sampler' && k !== 'height' && request[k] !== settings[k],
          );
          if (!changed.includes('width') && request.height !== settings.height) changed.push('height');
          const samplerLost = settings.sampler !== undefined && request.sampler === undefined;
          expect(
            warnings.length,
            `changed: ${changed.join(', ')}; warnings: ${warnings.join(' | ')}`,
          ).toBeGreaterThanOrEqual(changed.length + (samplerLost ? 1 : 0));
        },
      ),
    );
  });
});

describe('models by hash, else by name', () => {
  const a1111Models = [
    'v1-5-pruned-emaonly.safetensors [6ce0161689]',
    'sd_xl_base_1.0.safetensors [31e35c80fc]',
    'dreamshaper_8.safetensors [879db523c3]',
  ];
  const comfyModels = [
    'SD1.5/v1-5-pruned-emaonly.safetensors',
    'SDXL/sd_xl_base_1.0.safetensors',
    'juggernautXL_v9.safetensors',
  ];

  it.each([
    // An imported file's "Model hash" finds the listed title carrying it, whatever the file was called.
    ['renamed-model', '879db523c3', a1111Models, 'dreamshaper_8.safetensors [879db523c3]'],
    // The old 8-digit hash is the head of the new one.
    [undefined, '879db523', a1111Models, 'dreamshaper_8.safetensors [879db523c3]'],
    ['sd_xl_base_1.0', '31e35c80fc', comfyModels, 'SDXL/sd_xl_base_1.0.safetensors'],
    ['v1-5-pruned-emaonly.safetensors [6ce0161689]', undefined, comfyModels, 'SD1.5/v1-5-pruned-emaonly.safetensors'],
    ['SDXL/sd_xl_base_1.0.safetensors', undefined, a1111Models, 'sd_xl_base_1.0.safetensors [31e35c80fc]'],
    ['unknown_model', 'deadbeef00', a1111Models, undefined],
  ])('%s (hash %s) → %s', (model, hash, models, expected) => {
    expect(matchModel(model, hash, models)).toBe(expected);
  });

  it('the stem drops folder, extension and hash', () => {
    expect(modelStem('SDXL\\sd_xl_base_1.0.safetensors [31e35c80fc]')).toBe('sd_xl_base_1.0');
  });

  it('mapSettings uses the match, or names the model it could not find', () => {
    expect(
      mapSettings({ prompt: 'p', width: 512, height: 512, model: 'mine', modelHash: '6ce0161689' }, 'a1111', 'a1111', {
        models: a1111Models,
      }).request.model,
    ).toBe('v1-5-pruned-emaonly.safetensors [6ce0161689]');
    const lost = mapSettings(
      { prompt: 'p', width: 512, height: 512, model: 'mine.safetensors', modelHash: 'abcdef1234' },
      'a1111',
      'comfyui',
      { models: comfyModels },
    );
    expect(lost.request.model).toBeUndefined();
    expect(lost.warnings).toEqual([
      'ComfyUI lists no model matching "mine.safetensors" (hash abcdef1234): its default model is used.',
    ]);
    // Same kind with no model list at hand: the name stays as it was.
    expect(
      mapSettings({ prompt: 'p', width: 512, height: 512, model: 'mine' }, 'comfyui', 'comfyui').request.model,
    ).toBe('mine');
  });
});
