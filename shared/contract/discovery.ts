/** Engines found on this computer: what answered on the usual local ports, and connecting one in one click. */
import { z } from 'zod';
import { ProviderInfo, ProviderTestResult } from './providers.js';

/** The engines the probe can name; Atelier drives comfyui and a1111, and imports the others' output folders. */
export const ENGINE_KINDS = ['comfyui', 'a1111', 'swarmui', 'invokeai'] as const;
export const EngineKind = z.enum(ENGINE_KINDS);
export type EngineKind = z.infer<typeof EngineKind>;

/** Only this computer's loopback address, with a port: the probe never looks at another host. */
export const LoopbackUrl = z
  .string()
  .max(32)
  .regex(/^http:\/\/127\.0\.0\.1:\d{1,5}$/, 'An engine found here has an address like http://127.0.0.1:8188.');

export const FoundEngine = z.object({
  kind: EngineKind,
  /** ComfyUI, ComfyUI Desktop, AUTOMATIC1111, Forge, SwarmUI or InvokeAI. */
  name: z.string().max(100),
  /** As the engine reported it (checked to be a short version-like text), when it did. */
  version: z.string().max(64).optional(),
  url: LoopbackUrl,
  /** Atelier can send it work (ComfyUI, A1111/Forge); the others are named only. */
  connectable: z.boolean(),
  /** An enabled provider instance already points at this address. */
  alreadyConnected: z.boolean(),
  /** That instance, when connected. */
  providerId: z.string().optional(),
});
export type FoundEngine = z.infer<typeof FoundEngine>;

export const FoundEngines = z.object({
  engines: z.array(FoundEngine),
  /** Ports where something answered that is not an engine Atelier knows. */
  otherPorts: z.array(z.number().int()),
});
export type FoundEngines = z.infer<typeof FoundEngines>;

export const ConnectEngine = z.strictObject({ url: LoopbackUrl });
export type ConnectEngine = z.infer<typeof ConnectEngine>;

export const ConnectedEngine = z.object({
  provider: ProviderInfo,
  /** A new instance was added beside the kind's first, which points elsewhere. */
  created: z.boolean(),
  test: ProviderTestResult,
});
export type ConnectedEngine = z.infer<typeof ConnectedEngine>;
