import type { TestProject } from 'vitest/node';
import { buildRendererInto } from './renderer-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The renderer built once for this run (vitest.config.ts, project `e2e`); `buildRenderer()` hands it out. */
    rendererDir: string;
  }
}

/**
 * The `e2e` project's global setup: vitest runs it only when an e2e file is in the run, before any of them starts.
 * One Vite build into a temp folder that every e2e file shares (the files only read it), removed at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const renderer = await buildRendererInto();
  project.provide('rendererDir', renderer.dir);
  return () => renderer.remove();
}
