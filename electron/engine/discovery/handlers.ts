import type { FoundEngine, Handlers } from '../../../shared/contract.js';
import { DRIVEN_KINDS, ENGINE_CANDIDATES, type EngineCandidate } from './candidates.js';
import { connectEngine, connectedInstance, type ConnectDeps } from './connect.js';
import { probeAll, type ProbeOptions } from './probe.js';

export interface DiscoveryDeps extends Omit<ConnectDeps, 'candidates'> {
  /** Where to look; the real list unless a test points at fakes. */
  candidates?: readonly EngineCandidate[];
  probe?: ProbeOptions;
}

/** `engines.find` and `engines.connect`: engines on this computer, named and connected in one click. */
export function createDiscoveryHandlers(deps: DiscoveryDeps): Pick<Handlers, 'engines.find' | 'engines.connect'> {
  const candidates = deps.candidates ?? ENGINE_CANDIDATES;
  return {
    'engines.find': async () => {
      const findings = await probeAll(candidates, deps.probe);
      const engines: FoundEngine[] = [];
      const otherPorts: number[] = [];
      for (const f of findings) {
        if (f.found === 'other') otherPorts.push(f.port);
        if (f.found !== 'engine') continue;
        const connected = DRIVEN_KINDS.has(f.kind) ? connectedInstance(deps, f.kind, f.port) : undefined;
        engines.push({
          kind: f.kind,
          name: f.name,
          ...(f.version === undefined ? {} : { version: f.version }),
          url: f.url,
          connectable: DRIVEN_KINDS.has(f.kind),
          alreadyConnected: connected !== undefined,
          ...(connected === undefined ? {} : { providerId: connected.id }),
        });
      }
      return { engines, otherPorts };
    },
    'engines.connect': async ({ url }) => connectEngine({ ...deps, candidates }, url),
  };
}
