import { describe, expect, it } from 'vitest';
import { ServerModel } from '../../shared/contract.js';
import { KIT_CHECKPOINT } from './contract/graphs.js';
import { cfgFor, comfy, provider } from './helpers.js';

describe('the model library from a real ComfyUI', () => {
  it('the connection test lists its checkpoints for the library, each entry as the contract says', async () => {
    const listing = await provider.test(cfgFor(comfy().url), new AbortController().signal);
    expect(listing.ok).toBe(true);
    expect(listing.library).toContainEqual({ kind: 'checkpoint', name: KIT_CHECKPOINT });
    for (const model of listing.library ?? []) expect(ServerModel.safeParse(model).success).toBe(true);
    // The checkpoints are the same list the model picker offers.
    expect(listing.library?.filter((m) => m.kind === 'checkpoint').map((m) => m.name)).toEqual(listing.models);
  });
});
