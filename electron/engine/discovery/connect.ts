import { AppError } from '../../../shared/errors.js';
import type { ConnectedEngine, EngineKind } from '../../../shared/contract.js';
import { A1111_BASE_URL } from '../../providers/a1111/connection.js';
import { COMFYUI_BASE_URL } from '../../providers/comfyui/connection.js';
import type { ProviderRegistry } from '../provider-registry.js';
import type { SettingsService } from '../settings-service.js';
import { DRIVEN_KINDS, type EngineCandidate } from './candidates.js';
import { pointsAtPort } from './same-address.js';
import { probePort, type ProbeOptions } from './probe.js';

/** The address each driven kind's first instance starts with: still that one means nobody chose it. */
const SHIPPED_URLS: Partial<Record<EngineKind, string>> = { comfyui: COMFYUI_BASE_URL, a1111: A1111_BASE_URL };

export interface ConnectDeps {
  providers: Pick<ProviderRegistry, 'instances' | 'add' | 'info' | 'test'>;
  settings: Pick<SettingsService, 'provider' | 'update'>;
  candidates: readonly EngineCandidate[];
  probe?: ProbeOptions;
  /** The scheduler looks again (a newly enabled server may take queued work). */
  kick(): void;
}

/** The enabled instance of a kind that already points at this port, if any. */
export function connectedInstance(deps: Pick<ConnectDeps, 'providers' | 'settings'>, kind: string, port: number) {
  return deps.providers
    .instances()
    .find(
      (i) =>
        i.kind === kind &&
        deps.settings.provider(i.id)?.enabled === true &&
        pointsAtPort(deps.settings.provider(i.id)?.baseUrl, port),
    );
}

/**
 * One click: the engine at this port (asked again, never trusted from the caller) becomes an enabled provider at
 * that address, reusing an instance that points there, else the kind's first when nobody pointed it elsewhere,
 * else a new instance; then its connection test runs.
 */
export async function connectEngine(deps: ConnectDeps, url: string): Promise<ConnectedEngine> {
  const port = Number(new URL(url).port);
  const candidate = deps.candidates.find((c) => c.port === port);
  if (candidate === undefined) {
    throw new AppError('invalid_request', `Atelier does not look for engines at ${url}.`, {
      details: { fields: { url: 'Not one of the addresses Atelier looks at.' } },
    });
  }
  const finding = await probePort(candidate, deps.probe);
  if (finding.found !== 'engine') {
    throw new AppError('not_found', `No engine answers at ${url} now: start it, then look again.`);
  }
  if (!DRIVEN_KINDS.has(finding.kind)) {
    throw new AppError(
      'invalid_request',
      `Atelier cannot drive ${finding.name} yet; import its output folder to bring its images in.`,
      { details: { fields: { url: 'Not an engine Atelier drives.' } } },
    );
  }
  const kind = finding.kind;
  const instances = deps.providers.instances().filter((i) => i.kind === kind);
  const pointing = instances.find((i) => pointsAtPort(deps.settings.provider(i.id)?.baseUrl, port));
  const first = deps.settings.provider(kind);
  const firstIsFree =
    first !== undefined &&
    !first.enabled &&
    (first.baseUrl === undefined || first.baseUrl === SHIPPED_URLS[kind] || pointsAtPort(first.baseUrl, port));
  let id: string;
  let created = false;
  if (pointing !== undefined) id = pointing.id;
  else if (firstIsFree) id = kind;
  else {
    const name = finding.version === undefined ? finding.name : `${finding.name} ${finding.version}`;
    id = (await deps.providers.add({ kind, name: `${name} (port ${port})`.slice(0, 100), baseUrl: url })).id;
    created = true;
  }
  await deps.settings.update({ providers: { [id]: { enabled: true, baseUrl: url } } });
  deps.kick();
  const test = await deps.providers.test(id);
  return { provider: await deps.providers.info(id), created, test };
}
