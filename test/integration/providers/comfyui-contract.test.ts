import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Transcript, transcript } from '../../fakes/comfyui-nodes.js';
import { type FakeComfy, startFakeComfyUI } from '../../fakes/comfyui.js';
import { KIT_CHECKPOINTS, KIT_UPSCALER } from '../../real-comfyui/contract/graphs.js';
import { type ContractRun, runContract } from '../../real-comfyui/contract/scenarios.js';

/**
 * The fake ComfyUI answers as the real one did: the same scenarios that recorded
 * test/fixtures/comfyui-real-transcript.json from a real ComfyUI (test/real-comfyui/record-transcript.ts) run
 * against the fake, and what they find must match, scenario by scenario.
 */
let fake: FakeComfy;
let run: ContractRun;
let recorded: Transcript;

beforeAll(async () => {
  recorded = transcript();
  // The kit's model names, previews on as start.sh starts it, and steps slow enough to interrupt a long job.
  fake = await startFakeComfyUI({
    checkpoints: KIT_CHECKPOINTS,
    upscaleModels: [KIT_UPSCALER],
    previews: true,
    stepMs: 20,
  });
  run = await runContract(fake.url);
}, 120_000);
afterAll(async () => {
  await fake?.close();
});

describe('the fake ComfyUI against the transcript recorded from a real one', () => {
  it('was recorded from a real ComfyUI', () => {
    expect(recorded.comfyuiVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(recorded.facts).sort()).toEqual([
      'discovery',
      'fromImages',
      'interrupts',
      'refusals',
      'textToImage',
      'twoSockets',
    ]);
  });

  it.each(['discovery', 'textToImage', 'fromImages', 'refusals', 'interrupts', 'twoSockets'])('%s', (scenario) => {
    expect(run.facts[scenario]).toEqual(recorded.facts[scenario]);
  });
});
