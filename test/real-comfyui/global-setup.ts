import type { TestProject } from 'vitest/node';
import { type RealComfy, setupKit, startComfy } from './kit.js';

/** The server every file shares: started by start.sh as the kit starts it (previews on), on a free port, own folders. */
export interface SharedComfy {
  url: string;
  port: number;
  dir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    comfy: SharedComfy;
  }
}

/** Sets the kit up if needed, starts the shared server, and stops it at the end; fails with the reason when it cannot. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = (line: string) => process.stdout.write(`[real-comfyui] ${line}\n`);
  await setupKit(log);
  const started = Date.now();
  const server: RealComfy = await startComfy({ previews: true });
  log(`ComfyUI on ${server.url} (pid ${server.pid}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('comfy', { url: server.url, port: server.port, dir: server.dir });
  return async () => {
    await server.stop();
    log('ComfyUI stopped');
  };
}
