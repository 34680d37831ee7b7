import type { ImportedMetadata } from '../../../shared/contract';

type Pass = NonNullable<ImportedMetadata['passes']>[number];

const ROLE_LABELS: Record<string, string> = {
  refiner: 'Refiner',
  hires: 'Hires fix',
  detailer: 'Detailer',
  upscale: 'Upscale',
  sampler: 'Another pass',
};

/** A pass as Details names it: what it was for (the reader's role, else the node class). */
export function passLabel(pass: Pass): string {
  return ROLE_LABELS[pass.role] ?? pass.classType;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The settings a pass changed, in a line: model, steps, denoise, sampler, size (the file's own values, untrusted). */
export function passSummary(pass: Pass): string {
  const s = pass.settings;
  const steps = number(s['steps']);
  const denoise = number(s['denoise']);
  const width = number(s['width']);
  const height = number(s['height']);
  const parts = [
    text(s['model'])?.slice(0, 120),
    steps === undefined ? undefined : `${steps} steps`,
    denoise === undefined ? undefined : `denoise ${denoise}`,
    text(s['sampler'])?.slice(0, 60),
    width === undefined || height === undefined ? undefined : `${width} × ${height}`,
  ];
  return parts.filter((p): p is string => p !== undefined).join(' · ');
}
