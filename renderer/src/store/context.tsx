import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Api } from '../api';
import { selectJobIndex, type JobIndex } from './jobs-model';
import type { AppStore } from './store';
import type { AppState } from './types';

interface AppContextValue {
  store: AppStore;
  api: Api;
}

const AppContext = createContext<AppContextValue | null>(null);

export function AppProvider({ store, api, children }: AppContextValue & { children: ReactNode }) {
  return <AppContext.Provider value={{ store, api }}>{children}</AppContext.Provider>;
}

function useAppContext(): AppContextValue {
  const value = useContext(AppContext);
  if (value === null) throw new Error('AppProvider is missing');
  return value;
}

/** A narrow selector into the store: the component re-renders only when what it picks changes. */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useAppContext().store, selector);
}

/** For selectors that build an object or array: compared shallowly. */
export function useAppShallow<T>(selector: (state: AppState) => T): T {
  return useStore(useAppContext().store, useShallow(selector));
}

/**
 * The jobs index, `byId`. A page of new jobs is added to it in place, so `useApp((s) => s.jobs.byId)` would miss it:
 * this follows the index's version too, and hands back a new object when either changes.
 */
export function useJobIndex(): JobIndex {
  return useAppShallow((s) => selectJobIndex(s.jobs));
}

export function useAppStore(): AppStore {
  return useAppContext().store;
}

export function useApi(): Api {
  return useAppContext().api;
}
