/** The contract's entry point: every domain under shared/contract/, behind one import. */
export * from './contract/index.js';
