import { inject } from 'vitest';
import { createComfyUIProvider } from '../../electron/providers/comfyui/index.js';
import type { ProviderConfig } from '../../electron/providers/types.js';
import { config } from '../integration/providers/helpers.js';
import { KIT_CHECKPOINT } from './contract/graphs.js';
import { call } from './contract/wire.js';

/** The shared real server (started by global-setup.ts). */
export const comfy = () => inject('comfy');

/** Atelier's provider as the app makes it (default cancel and history waits). */
export const provider = createComfyUIProvider();

/** A config for a real server: its checkpoint, and a timeout that allows for a loaded machine. */
export function cfgFor(url: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return config({ baseUrl: url, model: KIT_CHECKPOINT, timeoutMs: 170_000, ...overrides });
}

/** What the server's own queue holds now, by prompt id. */
export async function serverQueue(url: string): Promise<{ running: string[]; pending: string[] }> {
  const q = (await call(url, 'GET', '/queue')).json as { queue_running: unknown[][]; queue_pending: unknown[][] };
  return { running: q.queue_running.map((i) => String(i[1])), pending: q.queue_pending.map((i) => String(i[1])) };
}

/** The server's history entry for a prompt, or undefined when it has none. */
export async function serverHistory(
  url: string,
  promptId: string,
): Promise<
  { status: { status_str: string; messages: [string, unknown][] }; outputs: Record<string, unknown> } | undefined
> {
  const json = (await call(url, 'GET', `/history/${promptId}`)).json as Record<string, never>;
  return json[promptId];
}
