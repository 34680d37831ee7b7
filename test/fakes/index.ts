export { startFakeOpenAI, openAIErrors, type FakeOpenAI, type OpenAIScenario, type FakeOpenAIOptions } from './openai.js';
export { makePng, pngFor } from './png.js';
export type { LoggedRequest } from './server.js';
