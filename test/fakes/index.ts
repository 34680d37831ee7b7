export {
  startFakeOpenAI,
  openAIErrors,
  type FakeOpenAI,
  type OpenAIScenario,
  type FakeOpenAIOptions,
} from './openai.js';
export { makePng, pngFor } from './png.js';
export type { LoggedRequest } from './server.js';
export { startFakeA1111, a1111Errors, type FakeA1111, type A1111Scenario, type FakeA1111Options } from './a1111.js';
export {
  startFakeComfyUI,
  comfyErrors,
  type FakeComfy,
  type ComfyScenario,
  type FakeComfyOptions,
  type SocketLog,
} from './comfyui.js';
