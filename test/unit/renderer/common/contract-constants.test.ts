import { describe, expect, it } from 'vitest';
import * as contract from '../../../../shared/contract';
import * as local from '../../../../renderer/src/common/contract-constants';
import { SOURCE_ORDER } from '../../../../renderer/src/library/import/sources';

describe("the renderer's copies of the contract's constants (kept out of the first paint)", () => {
  it('equal the contract: terminal statuses, event names, themes', () => {
    expect([...local.TERMINAL_STATUSES].sort()).toEqual([...contract.TERMINAL_STATUSES].sort());
    expect([...local.EVENT_NAMES].sort()).toEqual([...contract.EVENT_NAMES].sort());
    expect([...local.THEMES]).toEqual([...contract.THEMES]);
    expect(local.MAX_DRAG_FILES).toBe(contract.MAX_DRAG_FILES);
    expect(local.MAX_PROVIDER_CONCURRENCY).toBe(contract.MAX_PROVIDER_CONCURRENCY);
    expect(local.MAX_PER_MINUTE).toBe(contract.MAX_PER_MINUTE);
    expect(local.MAX_REFERENCE_IMAGES).toBe(contract.MAX_REFERENCE_IMAGES);
    expect([...local.MODEL_KINDS]).toEqual([...contract.MODEL_KINDS]);
    expect(local.MAX_LORAS).toBe(contract.MAX_LORAS);
    for (const status of contract.JOB_STATUSES) expect(local.isTerminal(status)).toBe(contract.isTerminal(status));
  });
  it('equal the contract: provider kinds and any:<kind> targets', () => {
    expect([...local.PROVIDER_KINDS]).toEqual([...contract.PROVIDER_KINDS]);
    expect(local.ANY_PREFIX).toBe(contract.ANY_PREFIX);
    const targets = [
      ...contract.PROVIDER_KINDS.flatMap((k) => [k, `any:${k}`]),
      'any:',
      'any:nope',
      'comfyui-2',
      'ANY:comfyui',
      '',
    ];
    for (const target of targets) expect(local.kindOfTarget(target)).toBe(contract.kindOfTarget(target));
  });
  it("name every image source, in the contract's order", () => {
    expect(SOURCE_ORDER).toEqual([...contract.IMAGE_SOURCES]);
  });
});
