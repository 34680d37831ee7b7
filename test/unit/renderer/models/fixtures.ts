import { textOnlyOperations } from '../../../../shared/contract.js';
import type { LibraryModel, ProviderInfo, ProviderKind } from '../../../../shared/contract';

export function libraryModel(over: Partial<LibraryModel> & Pick<LibraryModel, 'name'>): LibraryModel {
  return {
    key: `${over.kind ?? 'lora'}:${over.name.toLowerCase()}`,
    kind: 'lora',
    servers: [],
    triggerWords: [],
    imageCount: 0,
    ...over,
  };
}

export const CAPS: ProviderInfo['capabilities'] = {
  sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[512, 512]] },
  maxCount: 4,
  seed: true,
  negativePrompt: true,
  maxPartialImages: 0,
  outputFormats: ['png'],
  operations: textOnlyOperations('text only'),
  steps: { min: 1, max: 150, default: 20 },
};

export function server(
  id: string,
  name: string,
  kind: ProviderKind,
  models: string[] = [],
  loras = true,
): ProviderInfo {
  return {
    id,
    name,
    enabled: true,
    configured: true,
    kind,
    concurrency: 1,
    health: { state: 'unknown', running: [] },
    capabilities: { ...CAPS, loras },
    models,
    status: { state: 'ready' },
  };
}
