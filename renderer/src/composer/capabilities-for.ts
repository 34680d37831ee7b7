import type { ProviderCapabilities, ProviderInfo } from '../../../shared/contract';

/**
 * What a provider can do with one model: the model's own capabilities where the engine sent them (they differ from
 * the default model's), else the provider's. '' is the provider's default model; a typed id it does not know gets
 * the provider's too, and the engine checks the request against the real model on submit.
 */
export function capabilitiesFor(
  provider: Pick<ProviderInfo, 'capabilities' | 'capabilitiesByModel' | 'operationsByModel'>,
  model: string | undefined,
): ProviderCapabilities {
  if (model === undefined || model === '') return provider.capabilities;
  // Own keys only: a model named "constructor" or "__proto__" is a model, not the object's prototype.
  const own = <T>(map: Record<string, T> | undefined): T | undefined =>
    map !== undefined && Object.hasOwn(map, model) ? map[model] : undefined;
  const caps = own(provider.capabilitiesByModel);
  if (caps !== undefined) return caps;
  // An answer with operations alone for this model (the map's older half) still says what it can do to an image.
  const operations = own(provider.operationsByModel);
  return operations === undefined ? provider.capabilities : { ...provider.capabilities, operations };
}
