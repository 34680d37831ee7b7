import type { ReadSettings } from './types.js';

/** Small helpers every generator reader shares: a field that does not parse is named in `problems`, never thrown. */

export function numberField(value: unknown, label: string, problems: string[]): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (Number.isFinite(n)) return n;
  problems.push(`${label} ${JSON.stringify(value)} is not a number.`);
  return undefined;
}

export function textField(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Drops undefined fields, so a reader's settings hold only what the file said. */
export function compact(settings: ReadSettings): ReadSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as ReadSettings;
}

/** JSON.parse that answers undefined instead of throwing; objects only. */
export function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
