export {
  createA1111Provider,
  A1111_BASE_URL,
  A1111_DEFAULTS,
  txt2imgBody,
  type A1111ProviderOptions,
} from './provider.js';
