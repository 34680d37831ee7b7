export {
  createComfyUIProvider,
  checkpointNames,
  COMFYUI_BASE_URL,
  COMFYUI_DEFAULTS,
  type ComfyUIProviderOptions,
} from './provider.js';
export { PLACEHOLDERS, defaultWorkflow, fillWorkflow, parseWorkflow } from './workflow.js';
