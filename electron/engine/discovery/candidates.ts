import type { EngineKind } from '../../../shared/contract.js';

/** One place an engine usually listens on this computer: its port, and the engine it is asked to be. */
export interface EngineCandidate {
  port: number;
  kind: EngineKind;
  /** What a found one is called when its answer does not name it more precisely. */
  name: string;
}

/** The only host the probe ever asks: this computer's loopback address. */
export const LOOPBACK = '127.0.0.1';

/** The usual local addresses (each project's default port); tests inject fakes' ports instead. */
export const ENGINE_CANDIDATES: readonly EngineCandidate[] = [
  { port: 8188, kind: 'comfyui', name: 'ComfyUI' },
  { port: 8000, kind: 'comfyui', name: 'ComfyUI Desktop' },
  { port: 7860, kind: 'a1111', name: 'AUTOMATIC1111' },
  { port: 7861, kind: 'a1111', name: 'AUTOMATIC1111' },
  { port: 7801, kind: 'swarmui', name: 'SwarmUI' },
  { port: 9090, kind: 'invokeai', name: 'InvokeAI' },
];

export const loopbackUrl = (port: number): string => `http://${LOOPBACK}:${port}`;

/** The kinds Atelier can send work to; the others are named, and their output folders imported. */
export const DRIVEN_KINDS: ReadonlySet<EngineKind> = new Set(['comfyui', 'a1111']);
