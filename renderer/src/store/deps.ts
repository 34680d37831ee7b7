import type { StateCreator } from 'zustand/vanilla';
import type { Api } from '../api';
import type { AppState } from './types';

export interface StoreDeps {
  api: Api;
  /** New idempotency keys; injected so tests can see which key went out. */
  makeKey: () => string;
  now: () => number;
}

export type SliceCreator<T> = (deps: StoreDeps) => StateCreator<AppState, [], [], T>;
