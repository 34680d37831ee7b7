import { beforeAll, describe, expect, it } from 'vitest';
import { transcript } from '../fakes/comfyui-nodes.js';
import { type ContractRun, runContract } from './contract/scenarios.js';
import { comfy } from './helpers.js';

/**
 * The transcript the fake is held to (test/fixtures/comfyui-real-transcript.json) still describes the real server:
 * the same scenarios, run against it now, find the same. When this fails after a ComfyUI update, record again with
 * test/real-comfyui/record-transcript.ts and make the fake follow.
 */
let run: ContractRun;

beforeAll(async () => {
  run = await runContract(comfy().url);
}, 300_000);

describe('the recorded transcript matches the real server', () => {
  it.each(['discovery', 'textToImage', 'fromImages', 'refusals', 'interrupts', 'twoSockets'])('%s', (scenario) => {
    expect(run.facts[scenario]).toEqual(transcript().facts[scenario]);
  });
});
