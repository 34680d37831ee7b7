import { describe, expect, it } from 'vitest';
import { readSwarmui } from '../../../../electron/library/readers/swarmui.js';

/** SwarmUI 0.9 metadata, as it writes it into `parameters`. */
function swarm(seed = '1460937711'): string {
  const meta = {
    sui_image_params: {
      prompt: 'a paper boat on a puddle, macro',
      negativeprompt: 'text, watermark',
      model: 'OfficialStableDiffusion/sd_xl_base_1.0',
      seed: 'SEED',
      steps: 24,
      cfgscale: 6.5,
      aspectratio: 'Custom',
      width: 1216,
      height: 832,
      sampler: 'dpmpp_2m',
      scheduler: 'karras',
      loras: ['ink_style', 'paper_craft'],
      loraweights: ['0.8', '1'],
      swarm_version: '0.9.2.1',
    },
    sui_extra_data: { date: '2024-09-01', prep_time: '0.01 sec', generation_time: '4.20 sec' },
    sui_models: [
      {
        name: 'sd_xl_base_1.0.safetensors',
        param: 'model',
        hash: '0x31e35c80fc4829d14f90153f4c74cd59c90b779f6afe05a74cd6120b893f7e5b',
      },
      { name: 'ink_style.safetensors', param: 'loras', hash: '0xabc' },
    ],
  };
  return JSON.stringify(meta).replace('"SEED"', seed);
}

const expected = {
  prompt: 'a paper boat on a puddle, macro',
  negativePrompt: 'text, watermark',
  seed: '1460937711',
  steps: 24,
  guidance: 6.5,
  sampler: 'dpmpp_2m',
  scheduler: 'karras',
  model: 'OfficialStableDiffusion/sd_xl_base_1.0',
  modelHash: '0x31e35c80fc4829d14f90153f4c74cd59c90b779f6afe05a74cd6120b893f7e5b',
  width: 1216,
  height: 832,
  loras: [
    { name: 'ink_style', weight: 0.8 },
    { name: 'paper_craft', weight: 1 },
  ],
};

describe('SwarmUI reader', () => {
  it('reads sui_image_params from PNG parameters, with the model hash from sui_models', () => {
    expect(readSwarmui(new Map([['parameters', swarm()]]))).toEqual({
      source: 'swarmui',
      settings: expected,
      problems: [],
    });
  });

  it('reads the same JSON from a JPEG EXIF UserComment, a 64-bit seed exactly', () => {
    const read = readSwarmui(new Map([['exif:UserComment', swarm('18446744073709551615')]]));
    expect(read?.settings).toEqual({ ...expected, seed: '18446744073709551615' });
  });

  it('names fields that do not parse and keeps the rest', () => {
    const read = readSwarmui(new Map([['parameters', swarm('-1').replace('"steps":24', '"steps":"lots"')]]));
    expect(read?.settings.prompt).toBe(expected.prompt);
    expect(read?.problems).toEqual(['seed: -1 could not be read', 'steps: "lots" could not be read']);
  });

  it('claims damaged SwarmUI JSON and says so', () => {
    expect(readSwarmui(new Map([['parameters', swarm().slice(0, 60)]]))).toEqual({
      source: 'swarmui',
      settings: {},
      problems: ['parameters: not valid JSON'],
    });
  });

  it('answers undefined for A1111 text and for Fooocus JSON', () => {
    expect(
      readSwarmui(new Map([['parameters', 'a cat\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 1']])),
    ).toBeUndefined();
    expect(
      readSwarmui(
        new Map([
          ['parameters', '{"full_prompt": ["a cat"], "seed": "1"}'],
          ['fooocus_scheme', 'fooocus'],
        ]),
      ),
    ).toBeUndefined();
  });
});
