/**
 * What each engine's identifying answer says about it. Pure functions over untrusted text: JSON.parse (linear),
 * then only shapes and short version strings are kept.
 */
import type { EngineKind } from '../../../shared/contract.js';

export interface Identified {
  name: string;
  version?: string;
}

/** A short version-like text (v1.10.1, 0.3.40, f2.0.1v1.10.1-previous-669-gdfdcbab6), else none. */
export function cleanVersion(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return /^[\w.+-]{1,64}$/.test(trimmed) ? trimmed : undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const withVersion = (name: string, version: string | undefined): Identified =>
  version === undefined ? { name } : { name, version };

/** ComfyUI's GET /system_stats: `{ system: { comfyui_version, python_version, … }, devices: [...] }`. */
export function identifyComfyUI(text: string, name: string): Identified | undefined {
  const body = parseObject(text);
  const system = body?.['system'];
  if (typeof system !== 'object' || system === null || !Array.isArray(body?.['devices'])) return undefined;
  const fields = system as Record<string, unknown>;
  if (typeof fields['comfyui_version'] !== 'string' && typeof fields['python_version'] !== 'string') return undefined;
  return withVersion(name, cleanVersion(fields['comfyui_version']));
}

/**
 * A1111's GET /internal/sysinfo (modules/sysinfo.py): `Version` is its git tag. Forge's launch_utils.git_tag()
 * answers `f<forge version>-<A1111 tag>` (lllyasviel/stable-diffusion-webui-forge), so a leading "f2…" names Forge.
 */
export function identifyA1111Sysinfo(text: string): Identified | undefined {
  const body = parseObject(text);
  if (body === undefined || typeof body['Version'] !== 'string' || !('Platform' in body || 'Commit' in body))
    return undefined;
  const version = cleanVersion(body['Version']);
  return withVersion(version !== undefined && /^f\d/.test(version) ? 'Forge' : 'AUTOMATIC1111', version);
}

/** A1111's GET /sdapi/v1/options (servers without /internal/sysinfo): the options name the loaded checkpoint. */
export function identifyA1111Options(text: string): Identified | undefined {
  const body = parseObject(text);
  return body !== undefined && 'sd_model_checkpoint' in body ? { name: 'AUTOMATIC1111' } : undefined;
}

/** SwarmUI's POST /API/GetNewSession (src/WebAPI/BasicAPIFeatures.cs): a session id and its version. */
export function identifySwarmUI(text: string): Identified | undefined {
  const body = parseObject(text);
  if (body === undefined || typeof body['session_id'] !== 'string' || typeof body['version'] !== 'string')
    return undefined;
  return withVersion('SwarmUI', cleanVersion(body['version']));
}

/** InvokeAI's GET /api/v1/app/version: `{ version: "5.6.0", … }`. */
export function identifyInvokeAI(text: string): Identified | undefined {
  const body = parseObject(text);
  const version = cleanVersion(body?.['version']);
  return version !== undefined && /^v?\d+\.\d+/.test(version) ? { name: 'InvokeAI', version } : undefined;
}

/** The request that asks each kind who it is, in the order tried; the first that identifies it wins. */
export const IDENTIFYING_REQUESTS: Record<
  EngineKind,
  ReadonlyArray<{
    method: 'GET' | 'POST';
    path: string;
    body?: string;
    read: (text: string, name: string) => Identified | undefined;
  }>
> = {
  comfyui: [{ method: 'GET', path: '/system_stats', read: identifyComfyUI }],
  a1111: [
    { method: 'GET', path: '/internal/sysinfo', read: identifyA1111Sysinfo },
    { method: 'GET', path: '/sdapi/v1/options', read: identifyA1111Options },
  ],
  swarmui: [{ method: 'POST', path: '/API/GetNewSession', body: '{}', read: identifySwarmUI }],
  invokeai: [{ method: 'GET', path: '/api/v1/app/version', read: identifyInvokeAI }],
};
