/**
 * Type-level proof, checked by `tsc -p tsconfig.node.json` (and by vitest's expectTypeOf at runtime): every
 * contract channel has an engine handler, an IPC registration and a preload method, and the bridge has nothing more.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { AtelierBridge, BridgeDesktop, BridgeEvents } from '../../../shared/bridge.js';
import type { ChannelName, Handlers } from '../../../shared/contract.js';
import type { Result } from '../../../shared/errors.js';
import type { BRIDGE_CHANNELS } from '../../../electron/host/channel-names.js';
import type { buildBridge } from '../../../electron/glue/preload.js';
import type { createFakeEngine } from '../../fakes/engine.js';

type PreloadChannels = (typeof BRIDGE_CHANNELS)[number];
type BridgeKeys = Exclude<keyof ReturnType<typeof buildBridge>, keyof BridgeEvents | keyof BridgeDesktop>;

describe('contract coverage (types)', () => {
  it('the preload list names every channel and nothing else', () => {
    expectTypeOf<PreloadChannels>().toEqualTypeOf<ChannelName>();
  });
  it('the preload builds the exact bridge type', () => {
    expectTypeOf<ReturnType<typeof buildBridge>>().toEqualTypeOf<AtelierBridge>();
    expectTypeOf<BridgeKeys>().toEqualTypeOf<ChannelName>();
  });
  it('every channel has a handler with the contract signature', () => {
    expectTypeOf<keyof Handlers>().toEqualTypeOf<ChannelName>();
    expectTypeOf<ReturnType<typeof createFakeEngine>['handlers']>().toEqualTypeOf<Handlers>();
  });
  it('every bridge method answers a Result of the channel output', () => {
    expectTypeOf<Awaited<ReturnType<AtelierBridge['jobs.get']>>>().toEqualTypeOf<
      Result<Awaited<ReturnType<Handlers['jobs.get']>>>
    >();
  });
});
