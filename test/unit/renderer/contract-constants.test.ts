import { describe, expect, it } from 'vitest';
import * as contract from '../../../shared/contract';
import * as local from '../../../renderer/src/lib/contract-constants';
import { SOURCE_ORDER } from '../../../renderer/src/lib/sources';

describe("the renderer's copies of the contract's constants (kept out of the first paint)", () => {
  it('equal the contract: terminal statuses, event names, themes', () => {
    expect([...local.TERMINAL_STATUSES].sort()).toEqual([...contract.TERMINAL_STATUSES].sort());
    expect([...local.EVENT_NAMES].sort()).toEqual([...contract.EVENT_NAMES].sort());
    expect([...local.THEMES]).toEqual([...contract.THEMES]);
    expect(local.MAX_DRAG_FILES).toBe(contract.MAX_DRAG_FILES);
    for (const status of contract.JOB_STATUSES) expect(local.isTerminal(status)).toBe(contract.isTerminal(status));
  });
  it('name every image source, in the contract\'s order', () => {
    expect(SOURCE_ORDER).toEqual([...contract.IMAGE_SOURCES]);
  });
});
