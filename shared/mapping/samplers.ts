/**
 * A1111 sampler names and "Schedule type" ↔ ComfyUI sampler_name and scheduler. A1111 before 1.9 wrote both in
 * one name ("DPM++ 2M Karras"); 1.9 split them, and its "Automatic" means the sampler's own default schedule.
 */

interface SamplerRow {
  a1111: string;
  /** null: ComfyUI's KSampler has no such sampler. */
  comfy: string | null;
  /** The schedule A1111's "Automatic" gives this sampler (1.9+); absent: the model's own (ComfyUI's normal). */
  automatic?: string;
  /** Close, not the same: said in a warning. */
  approx?: string;
}

const ROWS: SamplerRow[] = [
  { a1111: 'Euler a', comfy: 'euler_ancestral' },
  { a1111: 'Euler', comfy: 'euler' },
  { a1111: 'LMS', comfy: 'lms' },
  { a1111: 'Heun', comfy: 'heun' },
  { a1111: 'DPM2', comfy: 'dpm_2', automatic: 'karras' },
  { a1111: 'DPM2 a', comfy: 'dpm_2_ancestral', automatic: 'karras' },
  { a1111: 'DPM++ 2S a', comfy: 'dpmpp_2s_ancestral', automatic: 'karras' },
  { a1111: 'DPM++ 2M', comfy: 'dpmpp_2m', automatic: 'karras' },
  { a1111: 'DPM++ SDE', comfy: 'dpmpp_sde', automatic: 'karras' },
  { a1111: 'DPM++ 2M SDE', comfy: 'dpmpp_2m_sde', automatic: 'exponential' },
  {
    a1111: 'DPM++ 2M SDE Heun',
    comfy: 'dpmpp_2m_sde',
    automatic: 'exponential',
    approx: "ComfyUI's KSampler runs DPM++ 2M SDE with the midpoint solver, not Heun's",
  },
  { a1111: 'DPM++ 3M SDE', comfy: 'dpmpp_3m_sde', automatic: 'exponential' },
  { a1111: 'DPM fast', comfy: 'dpm_fast' },
  { a1111: 'DPM adaptive', comfy: 'dpm_adaptive' },
  { a1111: 'DDIM', comfy: 'ddim', automatic: 'ddim_uniform' },
  { a1111: 'UniPC', comfy: 'uni_pc' },
  { a1111: 'LCM', comfy: 'lcm' },
  { a1111: 'PLMS', comfy: null },
  { a1111: 'Restart', comfy: null, automatic: 'karras' },
  { a1111: 'DDIM CFG++', comfy: null },
];

/** ComfyUI samplers that are an A1111 one with its noise drawn on the GPU (same method, other images per seed). */
const GPU_VARIANTS: Record<string, string> = {
  dpmpp_sde_gpu: 'dpmpp_sde',
  dpmpp_2m_sde_gpu: 'dpmpp_2m_sde',
  dpmpp_3m_sde_gpu: 'dpmpp_3m_sde',
};

/** A1111 "Schedule type" labels and ComfyUI scheduler names; null: the other side has none. */
const SCHEDULES: { a1111: string | null; comfy: string | null }[] = [
  { a1111: 'Uniform', comfy: 'normal' },
  { a1111: 'Normal', comfy: 'normal' },
  { a1111: 'Karras', comfy: 'karras' },
  { a1111: 'Exponential', comfy: 'exponential' },
  { a1111: 'SGM Uniform', comfy: 'sgm_uniform' },
  { a1111: 'KL Optimal', comfy: 'kl_optimal' },
  { a1111: 'Simple', comfy: 'simple' },
  { a1111: 'DDIM', comfy: 'ddim_uniform' },
  { a1111: 'Beta', comfy: 'beta' },
  { a1111: 'Polyexponential', comfy: null },
  { a1111: 'Align Your Steps', comfy: null },
  { a1111: null, comfy: 'linear_quadratic' },
];

export const A1111_SCHEDULE_TYPES = ['Automatic', ...SCHEDULES.flatMap((s) => (s.a1111 === null ? [] : [s.a1111]))];
export const COMFY_SCHEDULERS = [...new Set(SCHEDULES.flatMap((s) => (s.comfy === null ? [] : [s.comfy])))];

/** Case, spaces, dashes and underscores aside: "dpm++ 2m karras", "sgm_uniform" and "SGM Uniform" are found. */
function key(name: string): string {
  return name
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

function scheduleByA1111(label: string): (typeof SCHEDULES)[number] | undefined {
  return (
    SCHEDULES.find((s) => s.a1111 !== null && key(s.a1111) === key(label)) ??
    SCHEDULES.find((s) => s.comfy !== null && key(s.comfy) === key(label))
  );
}

/** "DPM++ 2M Karras" → DPM++ 2M with Karras; a 1.9 name stands alone. */
function splitA1111(name: string): { row: SamplerRow; schedule?: string } | undefined {
  const whole = ROWS.find((r) => key(r.a1111) === key(name));
  if (whole !== undefined) return { row: whole };
  for (const suffix of ['Karras', 'Exponential']) {
    if (!key(name).endsWith(` ${key(suffix)}`)) continue;
    const row = ROWS.find((r) => key(r.a1111) === key(name).slice(0, -(suffix.length + 1)));
    if (row !== undefined) return { row, schedule: suffix };
  }
  return undefined;
}

export interface SamplerMapping {
  sampler?: string;
  scheduler?: string;
  warnings: string[];
}

/** A1111's sampler and schedule type as ComfyUI's sampler_name and scheduler. */
export function a1111ToComfy(sampler: string | undefined, schedule: string | undefined): SamplerMapping {
  const warnings: string[] = [];
  const out: SamplerMapping = { warnings };
  const split = sampler === undefined ? undefined : splitA1111(sampler);
  if (sampler !== undefined && split === undefined)
    warnings.push(`ComfyUI has no sampler known to match A1111's "${sampler}": ComfyUI's default sampler is used.`);
  if (split !== undefined) {
    if (split.row.comfy === null)
      warnings.push(`ComfyUI has no ${split.row.a1111} sampler: ComfyUI's default sampler is used.`);
    else out.sampler = split.row.comfy;
    if (split.row.approx !== undefined && split.row.comfy !== null)
      warnings.push(`${split.row.a1111} becomes ${split.row.comfy}: ${split.row.approx}.`);
  }
  const named = split?.schedule ?? schedule;
  if (named === undefined || key(named) === 'automatic') {
    if (split !== undefined && split.row.comfy !== null) out.scheduler = split.row.automatic ?? 'normal';
    return out;
  }
  const row = scheduleByA1111(named);
  if (row?.comfy == null) warnings.push(`ComfyUI's KSampler has no "${named}" schedule: its normal schedule is used.`);
  else out.scheduler = row.comfy;
  return out;
}

/** ComfyUI's sampler_name and scheduler as A1111's sampler and "Schedule type". */
export function comfyToA1111(sampler: string | undefined, scheduler: string | undefined): SamplerMapping {
  const warnings: string[] = [];
  const out: SamplerMapping = { warnings };
  let row: SamplerRow | undefined;
  if (sampler !== undefined) {
    const base = GPU_VARIANTS[sampler] ?? sampler;
    row = ROWS.find((r) => r.comfy === base && r.approx === undefined);
    if (row === undefined)
      warnings.push(`A1111 has no sampler like ComfyUI's "${sampler}": A1111's default sampler is used.`);
    else {
      out.sampler = row.a1111;
      if (base !== sampler)
        warnings.push(
          `${sampler} becomes ${row.a1111}: A1111 draws its noise on the CPU, so the same seed gives a different image.`,
        );
    }
  }
  if (scheduler === undefined) return out;
  const schedule = SCHEDULES.find((s) => s.comfy !== null && key(s.comfy) === key(scheduler));
  // The sampler's own default (Euler a with normal) stays "Automatic", as A1111 writes it.
  if (row !== undefined && (row.automatic ?? 'normal') === schedule?.comfy) {
    out.scheduler = 'Automatic';
    return out;
  }
  const label =
    schedule?.comfy === 'normal'
      ? 'Normal'
      : (SCHEDULES.find((s) => s.comfy === schedule?.comfy && s.a1111 !== null)?.a1111 ?? undefined);
  if (label === undefined) warnings.push(`A1111 has no "${scheduler}" schedule type: its automatic schedule is used.`);
  else out.scheduler = label;
  return out;
}
