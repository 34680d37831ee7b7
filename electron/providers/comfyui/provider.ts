import type { Provider } from '../types.js';
import { buildGraph, checkUpscale, operation } from './build-graph.js';
import { capabilities, customGraph } from './capabilities.js';
import { connection } from './connection.js';
import { generate } from './generate.js';
import { type UpscalerMemo, testConnection } from './test-connection.js';
import { checkPlaceholders, defaultWorkflow } from './workflow.js';

export { COMFYUI_BASE_URL } from './connection.js';
export { COMFYUI_DEFAULTS } from './capabilities.js';
export { checkpointNames } from './test-connection.js';

export interface ComfyUIProviderOptions {
  /**
   * After an interrupt, the shortest wait for ComfyUI's confirmation before its queue is asked; slow steps stretch it.
   */
  cancelGraceMs?: number;
  /** The longest a cancel waits for ComfyUI to stop the prompt. */
  cancelWaitMaxMs?: number;
  /** How long to keep asking /history after the done signal while it is still empty. */
  historyWaitMs?: number;
}

/** ComfyUI over its HTTP and WebSocket API: the flow is in generate.ts, the checks in build-graph.ts. */
export function createComfyUIProvider(options: ComfyUIProviderOptions = {}): Provider {
  const run = {
    cancelGraceMs: options.cancelGraceMs ?? 2_000,
    cancelWaitMaxMs: options.cancelWaitMaxMs ?? 5 * 60_000,
    historyWaitMs: options.historyWaitMs ?? 2_000,
    memo: new Map() as UpscalerMemo,
  };
  return {
    id: 'comfyui',
    name: 'ComfyUI',
    capabilities: (config) => capabilities(config, run.memo),
    knownModels: (config) => (config.model === undefined || config.model === '' ? [] : [config.model]),
    listsModels: true,
    requiresModel: (config) => {
      try {
        return checkPlaceholders(customGraph(config) ?? defaultWorkflow()).has('model');
      } catch {
        // A broken workflow is refused by validate() with its own message.
        return false;
      }
    },
    // The base URL defaults to http://127.0.0.1:8188, so ComfyUI is always configured; `enabled` is separate.
    isConfigured: (config) => {
      try {
        connection(config);
        return true;
      } catch {
        return false;
      }
    },
    validate: (request, config) =>
      operation(request) === 'upscale'
        ? checkUpscale(request, config, run.memo)
        : void buildGraph(request, config, request.seed ?? 0),
    generate: (request, config, context) => generate(request, config, context, run),
    test: (config, signal) => testConnection(config, signal, run.memo),
  };
}
