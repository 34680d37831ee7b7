import {
  MAX_MODELS_WITH_CAPABILITIES,
  type OperationCapabilities,
  type ProviderCapabilities,
} from '../../shared/contract.js';
import type { Provider, ProviderConfig } from '../providers/types.js';

export interface ModelCapabilities {
  capabilitiesByModel: Record<string, ProviderCapabilities>;
  operationsByModel: Record<string, OperationCapabilities>;
}

/**
 * What each of the first MAX_MODELS_WITH_CAPABILITIES models can do, kept only where it differs from `usual` (the
 * configured model's): the composer's form and the viewer's buttons follow the chosen model. No network: each
 * provider answers `capabilities` from its own tables.
 */
export function modelCapabilities(
  provider: Pick<Provider, 'capabilities'>,
  config: ProviderConfig,
  models: readonly string[],
  usual: ProviderCapabilities,
): ModelCapabilities {
  const usualText = JSON.stringify(usual);
  const usualOperations = JSON.stringify(usual.operations);
  const capabilitiesByModel: Record<string, ProviderCapabilities> = {};
  const operationsByModel: Record<string, OperationCapabilities> = {};
  for (const model of models.slice(0, MAX_MODELS_WITH_CAPABILITIES)) {
    const caps = provider.capabilities({ ...config, model });
    if (JSON.stringify(caps) === usualText) continue;
    capabilitiesByModel[model] = caps;
    if (JSON.stringify(caps.operations) !== usualOperations) operationsByModel[model] = caps.operations;
  }
  return { capabilitiesByModel, operationsByModel };
}
