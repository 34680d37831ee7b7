import type { EngineKind } from '../../../shared/contract.js';
import { type EngineCandidate, loopbackUrl } from './candidates.js';
import { IDENTIFYING_REQUESTS } from './identify.js';
import { readAnswer } from './read-answer.js';

/** What one port said: an engine named by its own answer, something else, or nothing. */
export type PortFinding =
  | { found: 'engine'; kind: EngineKind; name: string; version?: string; url: string; port: number }
  | { found: 'other'; port: number }
  | { found: 'nothing'; port: number };

export interface ProbeOptions {
  /** Per request; a port that says nothing in this time counts as nothing. */
  timeoutMs?: number;
  /** An identifying answer is small; A1111's sysinfo, the largest, is well under this. */
  maxBytes?: number;
}

export const PROBE_TIMEOUT_MS = 1_500;
export const PROBE_MAX_BYTES = 4 * 1024 * 1024;

/** Asks one candidate port who it is, with the requests its kind answers (127.0.0.1 only). */
export async function probePort(candidate: EngineCandidate, options: ProbeOptions = {}): Promise<PortFinding> {
  const url = loopbackUrl(candidate.port);
  let answered = false;
  for (const request of IDENTIFYING_REQUESTS[candidate.kind]) {
    const answer = await readAnswer(url + request.path, {
      method: request.method,
      ...(request.body === undefined ? {} : { body: request.body }),
      timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? PROBE_MAX_BYTES,
    });
    if (answer.kind === 'silent') {
      if (!answered) return { found: 'nothing', port: candidate.port };
      continue;
    }
    answered = true;
    if (answer.kind !== 'answer' || answer.status < 200 || answer.status > 299) continue;
    const identified = request.read(answer.text, candidate.name);
    if (identified !== undefined)
      return { found: 'engine', kind: candidate.kind, ...identified, url, port: candidate.port };
  }
  return { found: 'other', port: candidate.port };
}

/** Every candidate at once: the whole probe takes about one timeout, however many ports are silent. */
export async function probeAll(
  candidates: readonly EngineCandidate[],
  options: ProbeOptions = {},
): Promise<PortFinding[]> {
  return Promise.all(candidates.map((c) => probePort(c, options)));
}
