import { createHash } from 'node:crypto';
import type { GenerateRequest } from '../../shared/contract.js';

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** JSON with object keys sorted at every level, so key order never changes a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Only the hash is stored: the raw key may be something a client considers private. */
export function idempotencyKeyHash(key: string): string {
  return sha256(`atelier-idempotency-key\0${key}`);
}

/** What makes two submits "the same request": everything but the key itself and the timeout. */
export function requestFingerprint(request: GenerateRequest): string {
  const { idempotencyKey: _key, timeoutMs: _timeout, ...rest } = request;
  return sha256(canonicalJson(rest));
}
